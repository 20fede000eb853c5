import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { buildOpenApiDocument } from './build-openapi-document.ts';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const run = promisify(execFile);

// Third-party tools on the document as a newcomer runs them: their defaults, no config of ours
// (the temporary directory has no redocly.yaml).
let dir: string;
before(() => {
  dir = mkdtempSync(join(tmpdir(), 'deskgate-openapi-tools-'));
  writeFileSync(
    join(dir, 'openapi.json'),
    JSON.stringify(buildOpenApiDocument({ basePath: '', metrics: true })),
  );
});
after(() => rmSync(dir, { recursive: true, force: true }));

test('redocly lint with its default rules: only the trailing slash, which the document explains', async () => {
  const cli = fileURLToPath(import.meta.resolve('@redocly/cli/bin/cli.js'));
  const result = await run(process.execPath, [cli, 'lint', 'openapi.json', '--format', 'json'], {
    cwd: dir,
    env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
  }).catch((error: { stdout: string }) => error);
  const report = JSON.parse(result.stdout) as { problems: { ruleId: string; severity: string }[] };
  assert.deepEqual(
    report.problems.map((p) => `${p.severity} ${p.ruleId}`),
    ['error no-path-trailing-slash'],
  );
  const document = buildOpenApiDocument({ basePath: '', metrics: true }) as {
    info: { description: string };
  };
  assert.match(document.info.description, /no-path-trailing-slash.*original service/s);
});

/**
 * openapi-typescript needs TypeScript 5's compiler API, which this project's TypeScript 7 does
 * not have, so npx runs it with its own TypeScript 5 (from the registry or npx's cache).
 */
test('openapi-typescript types every request body usably: valid bodies typecheck, wrong ones do not', {
  timeout: 180_000,
}, async (t) => {
  const generated = await run(
    'npx',
    [
      '--yes',
      '--package',
      'openapi-typescript@7.13.0',
      '--package',
      'typescript@5',
      'openapi-typescript',
      'openapi.json',
      '-o',
      'openapi.d.ts',
    ],
    { cwd: dir },
  ).catch((error: Error) => error);
  if (generated instanceof Error) {
    t.skip(`npx could not install openapi-typescript (no registry?): ${generated.message}`);
    return;
  }
  writeFileSync(
    join(dir, 'bodies.ts'),
    `import type { components } from './openapi.d.ts';
type Schemas = components['schemas'];
export const bodies: [
  Schemas['TopicsSpecificRequest'],
  Schemas['TopicsSpecificRequest'],
  Schemas['TopicsAllRequest'],
  Schemas['UserSpecificRequest'],
  Schemas['UserSpecificRequest'],
  Schemas['UserAllRequest'],
] = [
  { query: 'topics', condition: 'specific', parameters: { id: 1 } },
  { query: 'topics', condition: 'specific', sort: 'name', parameters: { name: 'inquiry' } },
  { query: 'topics', condition: 'all' },
  { query: 'user', condition: 'specific', parameters: { id: 1 } },
  { query: 'user', condition: 'specific', sort: 'email', parameters: { email: 'ann@example.com' } },
  { query: 'user', condition: 'all', sort: 'creationDate', parameters: { start_date: '2026-11-01', end_date: '2026-11-30' } },
];
// @ts-expect-error: parameters must be an object with id or name
export const wrong: Schemas['TopicsSpecificRequest'] = { query: 'topics', condition: 'specific', parameters: 5 };
`,
  );
  writeFileSync(
    join(dir, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        strict: true,
        noEmit: true,
        module: 'nodenext',
        allowImportingTsExtensions: true,
        skipLibCheck: false,
      },
      files: ['bodies.ts'],
    }),
  );
  const tsc = join(ROOT, 'node_modules', '.bin', 'tsc');
  const checked = await run(tsc, ['-p', 'tsconfig.json'], { cwd: dir }).catch(
    (error: { stdout: string }) => error,
  );
  assert.equal(checked.stdout, '');
});
