import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { assertCleanFailure } from '../cli/cli-assertions.ts';
import { runCli } from '../helpers/cli.ts';
import { startServer } from '../helpers/server.ts';

describe('serve refuses a bad configuration', { concurrency: true }, () => {
  let dir: string;
  let databasePath: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'deskgate-config-'));
    databasePath = join(dir, 'deskgate.db');
  });
  after(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  // Every rule of every variable is a unit test (src/config.test.ts); these show that serve
  // applies them before it touches anything, one per kind of check.
  const cases: [variable: string, value: string][] = [
    ['PORT', 'abc'],
    ['DESKGATE_DATABASE_URL', 'foo'],
    ['DESKGATE_TRUST_PROXY', 'loopback, 10.0.0.0/99'],
    ['DESKGATE_PATHS', '/upload/svc_wbs/,ost_wbs'],
    // node:http would throw on this pair with a stack trace; it is a configuration error.
    ['DESKGATE_HEADERS_TIMEOUT', '60000'],
  ];

  for (const [variable, value] of cases) {
    // A serve that wrongly starts would never exit: the test timeout turns that into a failure.
    test(`${variable}=${JSON.stringify(value)} stops serve with one line naming it`, {
      timeout: 30_000,
    }, async () => {
      const result = await runCli(['serve'], {
        HOST: '127.0.0.1',
        PORT: '0',
        DESKGATE_DATABASE_URL: `sqlite:${databasePath}`,
        [variable]: value,
      });
      assert.notEqual(result.code, 0);
      assertCleanFailure(result, 2, new RegExp(`\\b${variable}\\b`));
      assert.equal(existsSync(databasePath), false, 'the database was touched before the check');
    });
  }

  test('a request timeout shorter than the default headers timeout names DESKGATE_REQUEST_TIMEOUT', {
    timeout: 30_000,
  }, async () => {
    const result = await runCli(['serve'], {
      PORT: '0',
      DESKGATE_DATABASE_URL: `sqlite:${databasePath}`,
      DESKGATE_REQUEST_TIMEOUT: '5000',
    });
    assertCleanFailure(result, 2, /DESKGATE_REQUEST_TIMEOUT/);
  });
});

// Issue 37, item 13: `serve --port` and `--host`, over PORT and HOST.
describe('serve --port and --host', () => {
  let dir: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'deskgate-serve-options-'));
  });
  after(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  test('win over PORT and HOST: the server listens where the options say', async () => {
    // Variables serve would refuse: it starts only if the options replace them.
    const server = await startServer({
      databaseUrl: `sqlite:${join(dir, 'options.db')}`,
      env: { PORT: 'not-a-port', HOST: '' },
      args: ['--port', '0', '--host', '127.0.0.1'],
    });
    try {
      const listening = server.output.find((line) => line.includes('"deskgate listening"'));
      assert.equal((JSON.parse(listening ?? '{}') as { host?: string }).host, '127.0.0.1');
      assert.notEqual(server.port, 0);
      assert.equal((await fetch(`${server.origin}/healthz`)).status, 200);
    } finally {
      assert.equal(await server.stop(), 0);
    }
  });

  test('a bad --port or an empty --host: one line naming the option, exit 2', async () => {
    const database = `sqlite:${join(dir, 'never.db')}`;
    const [port, host] = await Promise.all([
      runCli(['serve', '--port', '70000', '--database', database]),
      runCli(['serve', '--host', '', '--database', database]),
    ]);
    assertCleanFailure(
      port,
      2,
      /^deskgate: --port "70000" is not valid: must be a whole number from 0 to 65535$/,
    );
    assertCleanFailure(host, 2, /^deskgate: --host needs a value$/);
    assert.equal(existsSync(join(dir, 'never.db')), false);
  });
});
