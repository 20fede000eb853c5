import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { assertCleanFailure } from '../cli/cli-assertions.ts';
import { runCli } from '../helpers/cli.ts';

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
