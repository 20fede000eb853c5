import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { DEFAULT_SCOPES } from '../../src/domain.ts';
import { firstKeyFilePath } from '../../src/server/announce-first-key.ts';
import { assertNoStackTrace, runCliJson } from '../cli/cli-assertions.ts';
import { runCli } from '../helpers/cli.ts';
import { DATABASES, type TestDatabase } from '../helpers/databases.ts';
import { call, topicBody } from '../helpers/http.ts';
import { ROOT } from '../helpers/paths.ts';
import { startServer } from '../helpers/server.ts';
import { readFirstKeyFile } from './first-key-file.ts';

const HEX_KEY = /\b[0-9A-F]{32}\b/;

const sqlite = DATABASES.find((kind) => kind.name === 'sqlite');
assert.ok(sqlite);

describe('the first key when stdout is not a terminal', () => {
  let database: TestDatabase;
  before(async () => {
    database = await sqlite.create();
  });
  after(async () => {
    await database.drop();
  });

  test('goes to a 0600 file beside the SQLite data, named in the log; stdout holds only JSON log lines', async () => {
    assert.ok(database.sqlitePath);
    const expected = join(dirname(database.sqlitePath), 'first-api-key.txt');
    // An empty setting is no setting: the default place, beside the data.
    const server = await startServer({
      databaseUrl: database.url,
      env: { DESKGATE_FIRST_KEY_FILE: '' },
    });
    try {
      const shown = await readFirstKeyFile({ ...server, firstKeyFile: expected });
      const key = shown.join('\n').match(HEX_KEY)?.[0];
      assert.ok(key, `no key in ${expected}`);
      assert.equal(statSync(expected).mode & 0o777, 0o600, 'only its owner may read it');

      const records = server.output.map((line) => {
        assert.doesNotThrow(() => JSON.parse(line), `not a JSON log line: ${line}`);
        return JSON.parse(line) as { msg?: string; file?: string };
      });
      assert.ok(!server.output.some((line) => line.includes(key)), 'the key is in the log');
      assert.ok(!server.output.some((line) => /curl/.test(line)), 'the example is in the log');
      const announced = records.find((r) => r.file !== undefined);
      assert.equal(announced?.file, expected, 'the log names the file');

      const reply = await call(server.url, { headers: { apikey: key }, body: topicBody(1) });
      assert.equal(reply.status, 200, 'the key in the file works');
      // Issue 37, item 13: docs/deploying.md said three scopes; the key has every one but admin.
      const scopes = /\(scopes: ([^)]+)\)/.exec(shown.join('\n'))?.[1];
      assert.equal(scopes, DEFAULT_SCOPES.join(', '));
      const deploying = readFileSync(join(ROOT, 'docs', 'deploying.md'), 'utf8').replace(
        /\s+/g,
        ' ',
      );
      assert.match(
        deploying,
        new RegExp(`first start creates one \\(scopes ${DEFAULT_SCOPES.join(', ')}:`),
      );
    } finally {
      assert.equal(await server.stop(), 0);
    }
  });

  test('a path that cannot be written stops the start in one line and costs no key', async () => {
    assert.ok(database.sqlitePath);
    const fresh = await sqlite.create();
    try {
      const blocker = join(dirname(database.sqlitePath), 'a-file');
      writeFileSync(blocker, '');
      const unwritable = join(blocker, 'first-api-key.txt');
      const failed = await runCli(['serve'], {
        PORT: '0',
        DESKGATE_DATABASE_URL: fresh.url,
        DESKGATE_FIRST_KEY_FILE: unwritable,
      });
      assert.equal(failed.code, 1, failed.stderr);
      const lines = failed.stderr.split('\n').filter(Boolean);
      assert.equal(lines.length, 1, failed.stderr);
      assert.match(lines[0] ?? '', /cannot write the first API key.*DESKGATE_FIRST_KEY_FILE/);
      assertNoStackTrace(failed.stderr);
      assert.ok(!HEX_KEY.test(failed.stdout + failed.stderr));
      assert.deepEqual(await runCliJson(['keys', 'list', '--database', fresh.url]), []);

      const server = await startServer({ databaseUrl: fresh.url });
      try {
        assert.match((await readFirstKeyFile(server)).join('\n'), HEX_KEY, 'the next start has it');
      } finally {
        await server.stop();
      }
    } finally {
      await fresh.drop();
    }
  });

  test('its place: the setting, else beside a SQLite file, else ./data', () => {
    const place = (databaseUrl: string, firstKeyFile?: string) =>
      firstKeyFilePath({ databaseUrl, firstKeyFile });
    assert.equal(place('sqlite:/data/deskgate.db'), '/data/first-api-key.txt');
    assert.equal(place('sqlite:./data/deskgate.db'), 'data/first-api-key.txt');
    assert.equal(place('postgres://db/desk'), 'data/first-api-key.txt');
    assert.equal(place('postgres://db/desk', '/run/key.txt'), '/run/key.txt');
  });
});

const hasScript = spawnSync('script', ['--version']).status === 0;

describe('the first key in a terminal', { skip: hasScript ? false : 'no script(1) here' }, () => {
  let database: TestDatabase;
  let dir: string;
  before(async () => {
    database = await sqlite.create();
    dir = mkdtempSync(join(tmpdir(), 'deskgate-tty-'));
  });
  after(async () => {
    await database.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  test('is shown on the terminal with its curl example, and no file is written', async () => {
    const keyFile = join(dir, 'first-api-key.txt');
    // script(1) gives the server a pseudo-terminal as stdout, as a person's shell does.
    const child = spawn('script', ['-qefc', 'exec node bin/deskgate.js serve', '/dev/null'], {
      cwd: ROOT,
      detached: true,
      env: {
        PATH: `${dirname(process.execPath)}:${process.env.PATH}`,
        HOME: process.env.HOME,
        TERM: 'dumb',
        PORT: '0',
        DESKGATE_DATABASE_URL: database.url,
        DESKGATE_FIRST_KEY_FILE: keyFile,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (c: Buffer) => {
      output += c.toString();
    });
    const exited = new Promise((resolve) => child.once('exit', resolve));
    try {
      const deadline = Date.now() + 15_000;
      while (!/curl .*apikey: [0-9A-F]{32}/.test(output) && Date.now() < deadline)
        await new Promise((resolve) => setTimeout(resolve, 50));
      assert.match(output, /shown only this once/);
      assert.match(output, /curl .*apikey: [0-9A-F]{32}/);
      assert.equal(existsSync(keyFile), false, 'a terminal gets the key, not a file');
    } finally {
      if (child.pid) process.kill(-child.pid, 'SIGTERM');
      await exited;
    }
  });
});
