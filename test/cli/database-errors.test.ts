import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { chmodSync, copyFileSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import SQLite from 'better-sqlite3';
import { createConnection } from 'mysql2/promise';
import pg from 'pg';
import { builtCli } from '../helpers/built-cli.ts';
import { childEnv } from '../helpers/child-env.ts';
import { type CliResult, runCli } from '../helpers/cli.ts';
import { DATABASES, MYSQL_ADMIN_URL, type TestDatabase } from '../helpers/databases.ts';
import { ROOT } from '../helpers/paths.ts';
import { assertCleanFailure, runCliJson } from './cli-assertions.ts';

/** Every command but serve and migrate: none of them may create or migrate a database. */
function dataCommands(dir: string): string[][] {
  const file = join(dir, 'topics.json');
  writeFileSync(file, JSON.stringify([{ topic: 'Imported' }]));
  return [
    ['keys', 'list'],
    ['keys', 'create', '--name', 'x'],
    ['keys', 'revoke', '1'],
    ['topics', 'list'],
    ['topics', 'add', '--topic', 'x'],
    ['topics', 'import', file],
    ['users', 'get', '1'],
  ];
}

/** The tables in the database `url` names, read straight from the database. */
async function listTables(url: string): Promise<string[]> {
  if (url.startsWith('sqlite:')) {
    const db = new SQLite(url.slice('sqlite:'.length), { readonly: true, fileMustExist: true });
    try {
      const rows = db.prepare("select name from sqlite_master where type = 'table'").all();
      return (rows as { name: string }[]).map((r) => r.name).sort();
    } finally {
      db.close();
    }
  }
  if (url.startsWith('postgres')) {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      const { rows } = await client.query<{ name: string }>(
        "select table_name as name from information_schema.tables where table_schema = 'public'",
      );
      return rows.map((r) => r.name).sort();
    } finally {
      await client.end();
    }
  }
  const connection = await createConnection(url);
  try {
    const [rows] = await connection.query(
      'select table_name as name from information_schema.tables where table_schema = database()',
    );
    return (rows as { name: string }[]).map((r) => r.name).sort();
  } finally {
    await connection.end();
  }
}

/** Runs one statement on the database `url` names (to plant another application's table). */
async function execute(url: string, statement: string): Promise<void> {
  if (url.startsWith('sqlite:')) {
    const db = new SQLite(url.slice('sqlite:'.length));
    db.exec(statement);
    db.close();
  } else if (url.startsWith('postgres')) {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    await client.query(statement).finally(() => client.end());
  } else {
    const connection = await createConnection(url);
    await connection.query(statement).finally(() => connection.end());
  }
}

/** The URL with another database name, user or password. */
function withUrl(url: string, change: (u: URL) => void): string {
  const changed = new URL(url);
  change(changed);
  return changed.toString();
}

for (const kind of DATABASES) {
  describe(`commands other than serve and migrate on ${kind.name} never create or migrate`, () => {
    let empty: TestDatabase;
    let dir: string;

    before(async () => {
      empty = await kind.create();
      dir = mkdtempSync(join(tmpdir(), 'deskgate-db-errors-'));
    });
    after(async () => {
      await empty.drop();
      rmSync(dir, { recursive: true, force: true });
    });

    test('an empty database: one line saying it is not (yet) a deskgate database; no table appears', async () => {
      if (empty.sqlitePath) writeFileSync(empty.sqlitePath, '');
      for (const args of dataCommands(dir)) {
        const result = await runCli([...args, '--database', empty.url]);
        assertCleanFailure(
          result,
          1,
          /not \(yet\) a deskgate database.*deskgate migrate.*--database/,
        );
      }
      assert.deepEqual(await listTables(empty.url), []);
    });

    test("another application's database is refused and left as it was", async () => {
      await execute(empty.url, 'create table app_orders (id integer primary key)');
      const result = await runCli(['keys', 'list', '--json'], { DESKGATE_DATABASE_URL: empty.url });
      assertCleanFailure(result, 1, /not \(yet\) a deskgate database.*DESKGATE_DATABASE_URL/);
      assert.deepEqual(await listTables(empty.url), ['app_orders']);
    });

    test('after deskgate migrate the same commands work', async () => {
      await runCliJson(['migrate', '--database', empty.url]);
      const keys = await runCliJson<unknown[]>(['keys', 'list', '--database', empty.url]);
      assert.deepEqual(keys, []);
    });
  });
}

/**
 * Runs `deskgate ARGS` in `dir`, deleted after the shell went into it. Node's recursive mkdir of
 * a relative path never returns there (it retries the parent "." forever), synchronously: not
 * even SIGTERM stopped the command. Killed after 20 s (code null).
 */
async function runInDeletedDirectory(
  dir: string,
  args: readonly string[],
): Promise<{ code: number | null; stderr: string }> {
  const script = 'mkdir "$1" && cd "$1" && rmdir "$1" && shift && exec "$@"';
  const command = [process.execPath, await builtCli(), ...args];
  const child = spawn('sh', ['-c', script, 'sh', dir, ...command], {
    env: childEnv({ DESKGATE_LOG_FORMAT: 'json' }),
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const killer = setTimeout(() => child.kill('SIGKILL'), 20_000);
  const [code] = (await once(child, 'close')) as [number | null];
  clearTimeout(killer);
  return { code, stderr };
}

describe('SQLite paths that do not hold a database', () => {
  let dir: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'deskgate-db-errors-'));
  });
  after(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  test('a path in a directory that does not exist: one line, no directory or file created', async () => {
    const missing = join(dir, 'typo', 'dir', 'x.db');
    for (const args of dataCommands(dir)) {
      assertCleanFailure(
        await runCli([...args, '--database', `sqlite:${missing}`]),
        1,
        /typo\/dir\/x\.db is not \(yet\) a deskgate database.*--database/,
      );
    }
    assertCleanFailure(
      await runCli(['users', 'get', '1'], { DESKGATE_DATABASE_URL: `sqlite:${missing}` }),
      1,
      /not \(yet\) a deskgate database.*set by DESKGATE_DATABASE_URL/,
    );
    assert.equal(existsSync(join(dir, 'typo')), false, 'a directory was created');
  });

  test('in a working directory that was deleted: one line and exit 1, not a command that spins', async () => {
    for (const command of [['migrate'], ['serve', '--port', '0']]) {
      const { code, stderr } = await runInDeletedDirectory(join(dir, 'gone'), command);
      assert.equal(code, 1, `${command.join(' ')}: ${stderr}`);
      assert.match(stderr, /^deskgate: .*current working directory was likely removed/m);
    }
  });

  test('a file that is not a database: one line naming --database', async () => {
    const notes = join(dir, 'notes.txt');
    writeFileSync(notes, 'not a database, but long enough to be read as the start of one....');
    const result = await runCli(['topics', 'list', '--database', `sqlite:${notes}`]);
    assertCleanFailure(result, 1, /notes\.txt.*not a database.*--database/);
  });

  test('--database that is not a URL is blamed on --database, not on a variable never set', async () => {
    const result = await runCli(['keys', 'list', '--database', 'notaurl']);
    assertCleanFailure(result, 2, /^deskgate: --database "notaurl" is not valid/);
    assert.doesNotMatch(result.stderr, /DESKGATE_DATABASE_URL/);
    const fromEnv = await runCli(['keys', 'list'], { DESKGATE_DATABASE_URL: 'notaurl' });
    assertCleanFailure(fromEnv, 2, /^deskgate: DESKGATE_DATABASE_URL="notaurl" is not valid/);
  });
});

/** The user a root test run turns into, so that a file's mode bits bind it. */
const OTHER_USER = { uid: 65534, gid: 65534 };

function runsAsOtherUser(node: string, args: string[]): boolean {
  const probe = spawnSync(node, args, {
    cwd: ROOT,
    ...OTHER_USER,
    stdio: 'ignore',
    timeout: 30_000,
  });
  return probe.status === 0;
}

/**
 * As root a file's mode bits bind nobody, so the read-only case runs as uid 65534. That user may
 * not be able to run this Node (nvm, fnm or volta under root's home): then a copy of the binary
 * in a world-readable temporary directory runs instead. Only a checkout that user cannot read
 * skips the case, saying so.
 */
function prepareOtherUser(): { node: string; skip: string | false; cleanup: () => void } {
  const none = () => {};
  if (process.getuid?.() !== 0) return { node: process.execPath, skip: false, cleanup: none };
  let node = process.execPath;
  let cleanup = none;
  if (!runsAsOtherUser(node, ['--version'])) {
    const dir = mkdtempSync(join(tmpdir(), 'deskgate-node-'));
    chmodSync(dir, 0o755);
    node = join(dir, 'node');
    copyFileSync(process.execPath, node);
    chmodSync(node, 0o755);
    cleanup = () => rmSync(dir, { recursive: true, force: true });
  }
  const readable = runsAsOtherUser(node, [
    '-e',
    'require("node:fs").readFileSync("bin/deskgate.js")',
  ]);
  if (!readable) {
    cleanup();
    return {
      node,
      skip: `uid ${OTHER_USER.uid} cannot read the checkout at ${ROOT} (as root, this case needs a user whom mode bits bind)`,
      cleanup: none,
    };
  }
  return { node, skip: false, cleanup };
}

const otherUser = prepareOtherUser();
after(() => otherUser.cleanup());

/** Runs `deskgate ARGS` as a user who cannot write root's files (when the tests run as root). */
function runCliAsOtherUser(args: readonly string[]): Promise<CliResult> {
  const asRoot = process.getuid?.() === 0;
  return new Promise((resolve, reject) => {
    const child = spawn(otherUser.node, ['bin/deskgate.js', ...args], {
      cwd: ROOT,
      env: { PATH: process.env.PATH, DESKGATE_LOG_FORMAT: 'json' },
      stdio: ['ignore', 'pipe', 'pipe'],
      ...(asRoot ? OTHER_USER : {}),
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => {
      stdout += c.toString();
    });
    child.stderr.on('data', (c: Buffer) => {
      stderr += c.toString();
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('a read-only SQLite file', { skip: otherUser.skip }, () => {
  let dir: string;
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'deskgate-readonly-'));
    chmodSync(dir, 0o755);
    await runCliJson(['migrate', '--database', `sqlite:${join(dir, 'ro.db')}`]);
    chmodSync(join(dir, 'ro.db'), 0o444);
    chmodSync(dir, 0o555);
  });
  after(() => {
    chmodSync(dir, 0o755);
    rmSync(dir, { recursive: true, force: true });
  });

  test('a write is refused in one line naming the setting', async () => {
    const url = `sqlite:${join(dir, 'ro.db')}`;
    const result = await runCliAsOtherUser(['keys', 'create', '--name', 'x', '--database', url]);
    assertCleanFailure(result, 1, /ro\.db.*readonly.*--database/);
  });
});

const POSTGRES_URL = process.env.DESKGATE_TEST_POSTGRES_URL;

describe('PostgreSQL refusals, through the CLI and serve', { skip: !POSTGRES_URL }, () => {
  const base = POSTGRES_URL ?? 'postgres://localhost/x';

  test('a database that does not exist', async () => {
    const url = withUrl(base, (u) => {
      u.pathname = '/deskgate_no_such_database';
    });
    for (const args of [['keys', 'list'], ['migrate'], ['serve']]) {
      const result = await runCli([...args, '--database', url], { PORT: '0' });
      assertCleanFailure(
        result,
        1,
        /database "deskgate_no_such_database" does not exist.*--database/,
      );
    }
    const fromEnv = await runCli(['serve'], { DESKGATE_DATABASE_URL: url, PORT: '0' });
    assertCleanFailure(fromEnv, 1, /does not exist.*DESKGATE_DATABASE_URL/);
  });

  test('a role that does not exist', async () => {
    const url = withUrl(base, (u) => {
      u.username = 'deskgate_no_such_role';
    });
    const result = await runCli(['topics', 'list', '--database', url]);
    assertCleanFailure(result, 1, /role "deskgate_no_such_role" does not exist.*--database/);
  });

  test('a host where nothing listens', async () => {
    const url = withUrl(base, (u) => {
      u.port = '1';
    });
    const result = await runCli(['users', 'get', '1', '--database', url]);
    assertCleanFailure(result, 1, /cannot reach the database.*ECONNREFUSED.*--database/);
  });
});

describe('MySQL/MariaDB refusals, through the CLI and serve', { skip: !MYSQL_ADMIN_URL }, () => {
  const base = MYSQL_ADMIN_URL ?? 'mysql://localhost/x';
  const role = `deskgate_pw_${process.pid}`;

  before(async () => {
    if (!MYSQL_ADMIN_URL) return;
    const admin = await createConnection(MYSQL_ADMIN_URL);
    await admin.query(`create user '${role}'@'%' identified by 'right-password'`);
    await admin.query(`create user '${role}'@'localhost' identified by 'right-password'`);
    await admin.end();
  });
  after(async () => {
    if (!MYSQL_ADMIN_URL) return;
    const admin = await createConnection(MYSQL_ADMIN_URL);
    await admin.query(`drop user if exists '${role}'@'%', '${role}'@'localhost'`);
    await admin.end();
  });

  test('a database that does not exist', async () => {
    const url = withUrl(base, (u) => {
      u.pathname = '/deskgate_no_such_database';
    });
    for (const args of [['keys', 'list'], ['serve']]) {
      const result = await runCli([...args, '--database', url], { PORT: '0' });
      assertCleanFailure(result, 1, /Unknown database 'deskgate_no_such_database'.*--database/);
    }
  });

  test('a user that does not exist', async () => {
    const url = withUrl(base, (u) => {
      u.username = 'deskgate_no_such_user';
    });
    const result = await runCli(['keys', 'list'], { DESKGATE_DATABASE_URL: url });
    assertCleanFailure(result, 1, /Access denied.*DESKGATE_DATABASE_URL/);
  });

  test('a wrong password: one line, and the password is not in it', async () => {
    const url = withUrl(base, (u) => {
      u.username = role;
      u.password = 'wrong-password';
    });
    const result = await runCli(['serve', '--database', url], { PORT: '0' });
    assertCleanFailure(result, 1, /Access denied for user.*using password: YES.*--database/);
    assert.doesNotMatch(result.stderr, /wrong-password/);
  });
});
