import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { promisify } from 'node:util';
import { OPERATION_NAMES } from '../../src/operations/registry.ts';
import { CONSUMER_TSCONFIG, NPM_ENV } from '../helpers/package-project.ts';
import { ROOT } from '../helpers/paths.ts';
import { createKey, type StartedServer, startServer } from '../helpers/server.ts';

const run = promisify(execFile);
const PACKAGE = join(ROOT, 'packages', 'client');

/** The registry is never asked: the client has no dependency to fetch. */
const ENV = { ...NPM_ENV, npm_config_offline: 'true' };

/** Uses the client against a real server: a look-up, a write, a typed lookUp, an error. */
const CONSUMER_TS = `import {
  DeskgateClient,
  DeskgateError,
  type LookUps,
  type NewUserFields,
  type TopicRecord,
} from '@deskgate/client';

const desk = new DeskgateClient({ baseUrl: process.env.BASE_URL ?? '', apiKey: process.env.API_KEY ?? '', retries: 0 });
const user: NewUserFields = {
  name: 'Packed Client', email: 'packed.client@example.com', password: 's3cret-Passw0rd',
  timezone: 'UTC', phone: 351210000000, org_id: 0, default_email_id: 0, status: 1,
};
const topic: TopicRecord | null = await desk.getTopic(1);
const id: string = await desk.addUser(user, { idempotencyKey: 'packed-client-1' });
const found: LookUps['user/specific']['data'] | null = await desk.lookUp('user/specific', {
  sort: 'email',
  parameters: { email: 'PACKED.CLIENT@example.com' },
});
const plans = await desk.slaPlans({
  sort: 'creationDate',
  parameters: { start_date: '2000-01-01', end_date: '2100-12-31' },
});
let code = '';
try {
  await desk.addUser(user);
} catch (error) {
  if (error instanceof DeskgateError) code = error.code;
}
desk.close();
console.log(JSON.stringify({ topic: topic?.topic, id, email: found?.users[0]?.email, plans: plans.elements.length, code }));
export function neverCalled(record: TopicRecord): number {
  // @ts-expect-error a topic's name is a string: were the types \`any\`, this line would not fail
  return record.topic;
}
`;

// Issue 37, item 7: a project that only wants the typed client installed the whole server.
describe('@deskgate/client, packed from the checkout and installed into an empty project', () => {
  let dir: string;
  let project: string;
  let tarball: string;
  let server: StartedServer | undefined;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'deskgate-client-package-'));
    const packed = await run('npm', ['pack', '--silent', '--pack-destination', dir], {
      cwd: PACKAGE,
      env: ENV,
    });
    tarball = join(dir, packed.stdout.trim().split('\n').at(-1) ?? '');
    project = join(dir, 'project');
    mkdirSync(project);
    writeFileSync(
      join(project, 'package.json'),
      JSON.stringify({ name: 'consumer', private: true, type: 'module' }),
    );
    // Offline: the client has no dependency to fetch.
    await run('npm', ['install', '--no-package-lock', tarball], { cwd: project, env: ENV });
  });
  after(async () => {
    await server?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  test('is the client alone: compiled code and types, no dependency, nothing else installed', () => {
    assert.match(tarball, /deskgate-client-\d+\.\d+\.\d+\.tgz$/);
    const installed = join(project, 'node_modules', '@deskgate', 'client');
    const manifest = JSON.parse(readFileSync(join(installed, 'package.json'), 'utf8')) as Record<
      string,
      unknown
    >;
    assert.equal(manifest.dependencies, undefined);
    const installedPackages = readdirSync(join(project, 'node_modules')).filter(
      (name) => !name.startsWith('.'),
    );
    assert.deepEqual(installedPackages, ['@deskgate']);
    assert.deepEqual(readdirSync(installed).sort(), [
      'LICENSE',
      'README.md',
      'dist',
      'package.json',
    ]);
    const files = readdirSync(join(installed, 'dist')).sort();
    assert.ok(files.includes('index.js') && files.includes('index.d.ts'), files.join(' '));
    assert.ok(files.includes('operation-types.d.ts'), 'the generated types');
    assert.ok(!files.some((f) => f.includes('.test.')), 'a test file');
    for (const file of files) {
      const text = readFileSync(join(installed, 'dist', file), 'utf8');
      for (const [, specifier] of text.matchAll(/^(?:import|export)\b[^;]*?\bfrom\s+'([^']+)'/gm)) {
        assert.ok(
          specifier?.startsWith('node:') || specifier?.startsWith('./'),
          `${file} imports ${specifier}`,
        );
      }
    }
  });

  test('its types hold every operation of the registry', () => {
    const types = readFileSync(
      join(project, 'node_modules', '@deskgate', 'client', 'dist', 'operation-types.d.ts'),
      'utf8',
    );
    for (const name of OPERATION_NAMES) assert.ok(types.includes(`'${name}': {`), name);
  });

  test('a strict TypeScript project type-checks against it and calls a real server', async () => {
    writeFileSync(join(project, 'consumer.mts'), CONSUMER_TS);
    writeFileSync(join(project, 'tsconfig.json'), JSON.stringify(CONSUMER_TSCONFIG));
    const tsc = join(ROOT, 'node_modules', '.bin', 'tsc');
    const checked = await run(tsc, ['-p', 'tsconfig.json'], { cwd: project, env: ENV }).catch(
      (error: { stdout?: string; code?: number }) => error,
    );
    assert.equal((checked as { code?: number }).code ?? 0, 0, checked.stdout);

    const databaseUrl = `sqlite:${join(dir, 'server.db')}`;
    server = await startServer({ databaseUrl });
    const { key } = await createKey(databaseUrl, {
      scopes: ['read', 'write', 'users:read'],
    });
    // Node runs the .mts as it is: its types are erasable.
    const { stdout } = await run(process.execPath, ['consumer.mts'], {
      cwd: project,
      env: { ...ENV, BASE_URL: server.origin, API_KEY: key },
    });
    const result = JSON.parse(stdout.split('\n')[0] ?? '') as Record<string, unknown>;
    assert.deepEqual(result, {
      topic: 'General Inquiry',
      id: result.id,
      email: 'packed.client@example.com',
      plans: 1,
      code: 'duplicate_email',
    });
    assert.match(String(result.id), /^[1-9]\d*$/);
  });
});
