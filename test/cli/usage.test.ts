import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { DEFAULT_SCOPES, SCOPES } from '../../src/domain.ts';
import { runCli } from '../helpers/cli.ts';
import { DATABASES, type TestDatabase } from '../helpers/databases.ts';
import { assertCleanFailure, runCliJson, runCliText } from './cli-assertions.ts';

const COMMAND_NAMES = [
  'serve',
  'migrate',
  'keys create',
  'keys list',
  'keys revoke',
  'topics add',
  'topics import',
  'topics list',
  'users get',
];

for (const kind of DATABASES) {
  describe(`deskgate migrate and --database on ${kind.name}`, () => {
    let database: TestDatabase;
    let other: TestDatabase;

    before(async () => {
      database = await kind.create();
      other = await kind.create();
    });
    after(async () => {
      await database.drop();
      await other.drop();
    });

    test('migrate applies every migration once; the second run says it is up to date', async () => {
      const first = await runCliJson<{ applied: string[] }>([
        'migrate',
        '--database',
        database.url,
      ]);
      assert.ok(first.applied.length > 0, 'a fresh database gets its schema');
      const second = await runCliJson<{ applied: string[] }>([
        'migrate',
        '--database',
        database.url,
      ]);
      assert.deepEqual(second.applied, []);
      const text = await runCliText(['migrate', '--database', database.url]);
      assert.match(text, /up to date/i);
    });

    test('migrate without --json names what it applied on a fresh database', async () => {
      const text = await runCliText(['migrate', '--database', other.url]);
      assert.doesNotMatch(text, /up to date/i);
      assert.match(text, /\d{3}-/);
    });

    test('--database wins over DESKGATE_DATABASE_URL, which is the default', async () => {
      const env = { DESKGATE_DATABASE_URL: other.url };
      await runCliJson(['topics', 'add', '--topic', 'Only in the env database'], env);
      const inOther = await runCliJson<{ topic: string }[]>(['topics', 'list'], env);
      assert.ok(inOther.some((t) => t.topic === 'Only in the env database'));
      const inDatabase = await runCliJson<{ topic: string }[]>(
        ['topics', 'list', '--database', database.url],
        env,
      );
      assert.ok(!inDatabase.some((t) => t.topic === 'Only in the env database'));
    });
  });
}

describe('deskgate usage errors and help', () => {
  let dir: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'deskgate-usage-'));
  });
  after(() => {
    rmSync(dir, { recursive: true, force: true });
  });
  // Usage errors are found before the database is touched; this URL would fail if it were opened.
  const database = () => ['--database', `sqlite:${join(dir, 'never-created.db')}`];

  test('--help lists every command and exits 0', async () => {
    // Independent calls: side by side, each a process of its own.
    const texts = await Promise.all([['--help'], ['-h'], ['help']].map((args) => runCliText(args)));
    for (const text of texts) {
      for (const name of COMMAND_NAMES)
        assert.ok(text.includes(name), `${name} missing from --help`);
      assert.match(text, /--database/);
    }
  });

  test('COMMAND --help shows that command’s usage and exits 0', async () => {
    const text = await runCliText(['keys', 'create', '--help']);
    assert.match(text, /keys create/);
    assert.match(text, /--scope/);
    assert.match(text, /--allow-ip/);
    // Issue 37, item 13: it listed three of the six scopes.
    const listed = /a comma list of ([^(]+) \(default: ([^)]+)\)/.exec(text);
    assert.deepEqual(listed?.[1]?.split(', '), [...SCOPES]);
    assert.deepEqual(listed?.[2]?.split(','), [...DEFAULT_SCOPES]);
  });

  test('an unknown command exits 2 with one line naming it', async () => {
    const [result, rotate, keys] = await Promise.all([
      runCli(['frobnicate', ...database()]),
      runCli(['keys', 'rotate', ...database(), '--json']),
      runCli(['keys']),
    ]);
    assertCleanFailure(result, 2, /frobnicate/);
    assert.ok(
      !result.stderr.includes('never-created'),
      'the message mistakes the option value for a command word',
    );
    assertCleanFailure(rotate, 2, /keys rotate/);
    assertCleanFailure(keys, 2);
  });

  test('no command at all exits 2', async () => {
    const result = await runCli([]);
    assert.equal(result.code, 2);
    assert.equal(result.stderr.trim().split('\n').length, 1);
  });

  test('an unknown option, a missing option value or an extra argument exits 2 with one line', async () => {
    const [bogus, port, name, extra, empty] = await Promise.all([
      runCli(['keys', 'list', '--bogus', ...database()]),
      runCli(['keys', 'list', '--port', '9999', ...database()]),
      runCli(['keys', 'create', ...database(), '--json', '--name']),
      runCli(['topics', 'list', 'extra', ...database()]),
      runCli(['topics', 'list', '--database', '']),
    ]);
    assertCleanFailure(bogus, 2, /--bogus/);
    assertCleanFailure(port, 2, /--port/);
    assertCleanFailure(name, 2, /--name/);
    assertCleanFailure(extra, 2);
    assertCleanFailure(empty, 2, /--database/);
  });

  test('a database that cannot be opened exits 1 with one line, no stack trace', async () => {
    const notADatabase = join(dir, 'notes.txt');
    writeFileSync(notADatabase, 'this is not a database, but it is long enough to be read as one');
    const cases = [
      `sqlite:${notADatabase}`,
      // The parent "directory" is a file: the path cannot be created.
      `sqlite:${join(notADatabase, 'deskgate.db')}`,
    ];
    const results = await Promise.all(
      cases.flatMap((url) => [
        runCli(['topics', 'list', '--database', url]),
        runCli(['keys', 'list', '--database', url, '--json']),
      ]),
    );
    for (const result of results) assertCleanFailure(result, 1);
  });

  test('a bad DESKGATE_ variable stops any command with one line naming it (exit 2)', async () => {
    const result = await runCli(['topics', 'list', ...database()], { DESKGATE_LOG_LEVEL: 'loud' });
    assertCleanFailure(result, 2, /DESKGATE_LOG_LEVEL/);
  });
});
