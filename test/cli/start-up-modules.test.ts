import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { childEnv } from '../helpers/child-env.ts';
import { runCli } from '../helpers/cli.ts';
import { ROOT } from '../helpers/paths.ts';

const dir = mkdtempSync(join(tmpdir(), 'deskgate-start-up-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const REPORT_LOADED = {
  NODE_OPTIONS: `--import=${pathToFileURL(join(ROOT, 'test', 'support', 'report-loaded-modules.ts')).href}`,
};

interface Loaded {
  builtins: string[];
  urls: string[];
}

function parseReport(stderr: string): Loaded {
  return JSON.parse(stderr.slice(stderr.indexOf('loaded:') + 'loaded:'.length)) as Loaded;
}

/** The packages a command loaded, by name. */
const packages = (loaded: Loaded) => [
  ...new Set(
    loaded.urls.flatMap((url) => /\/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(url)?.[1] ?? []),
  ),
];

// An ES import of node:http reads its WebSocket getters, which load undici: 60 ms of CPU for every
// command that reaches the HTTP code (scripts/bundle-cli.ts, nodejs/node#59686).
test('migrate, whose bundle reaches the HTTP code, starts without loading undici', async () => {
  const result = await runCli(
    ['migrate', '--database', `sqlite:${join(dir, 'deskgate.db')}`],
    REPORT_LOADED,
  );
  assert.equal(result.code, 0, result.stderr);
  const loaded = parseReport(result.stderr);
  assert.ok(loaded.builtins.includes('NativeModule http'), 'the command loads node:http');
  assert.deepEqual(
    loaded.builtins.filter((name) => name.includes('undici')),
    [],
  );
});

// Help and completion read every command's usage and options, so they load every command's
// module: a command keeps what only its run needs (the operation registry, a database driver,
// the server, the logger) behind an import inside run.
const SERVICE_PACKAGES = ['mysql2', 'pg', 'pino', 'prom-client', 'rate-limiter-flexible', 'redis'];

for (const args of [['--help'], ['help', 'webhooks'], ['completion', 'bash']]) {
  test(`deskgate ${args.join(' ')} loads no database driver, logger or server package`, async () => {
    const result = await runCli(args, REPORT_LOADED);
    assert.equal(result.code, 0, result.stderr);
    const loaded = packages(parseReport(result.stderr));
    assert.ok(loaded.includes('better-sqlite3'), `the report lists packages: ${loaded}`);
    assert.deepEqual(
      loaded.filter((name) => SERVICE_PACKAGES.includes(name)),
      [],
    );
  });
}

test('deskgate --help from the sources loads neither the operation registry nor the server', async () => {
  const { stderr } = await promisify(execFile)(
    process.execPath,
    [join(ROOT, 'bin', 'deskgate.js'), '--help'],
    { cwd: dir, env: childEnv(REPORT_LOADED) },
  );
  const sources = parseReport(stderr)
    .urls.filter((url) => url.includes('/src/'))
    .map((url) => url.slice(url.indexOf('/src/') + 1));
  assert.ok(sources.includes('src/cli/commands/webhooks.ts'), 'every command module is loaded');
  assert.deepEqual(
    sources.filter(
      (path) => path === 'src/operations/registry.ts' || path.startsWith('src/server/serve'),
    ),
    [],
  );
});
