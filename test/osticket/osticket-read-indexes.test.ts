import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { createConnection } from 'mysql2/promise';
import {
  addIndexSql,
  dropIndexSql,
  OSTICKET_READ_INDEXES,
} from '../../src/data/osticket/osticket-indexes.ts';
import { runCli } from '../helpers/cli.ts';
import { MYSQL_ADMIN_URL } from '../helpers/databases.ts';
import { ROOT } from '../helpers/paths.ts';
import { type StartedServer, startServer } from '../helpers/server.ts';
import {
  createOsticketDatabase,
  OSTICKET_SKIP,
  type OsticketDatabase,
  osticketEnv,
} from './osticket-database.ts';

/** Tickets and users enough for a missing index to matter (LARGE_TABLE_ROWS is 10,000). */
const ROWS = 20_000;

interface Warning {
  level: number;
  msg: string;
  when?: string;
  advisory?: string;
}

const warnings = (output: readonly string[]): Warning[] =>
  output
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Warning)
    .filter((line) => line.advisory === 'missing_index');

async function waitFor<T>(find: () => T | undefined, what: string): Promise<T> {
  for (let tries = 0; tries < 100; tries++) {
    const found = find();
    if (found !== undefined) return found;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`timed out waiting for ${what}`);
}

describe("osTicket's missing read indexes (issue 34, item 2)", { skip: OSTICKET_SKIP }, () => {
  let database: OsticketDatabase;
  let server: StartedServer | undefined;
  const account = `dg_ro_${randomBytes(3).toString('hex')}`;
  const asRoot = async (statement: string) => {
    const connection = await createConnection(MYSQL_ADMIN_URL as string);
    try {
      await connection.query(statement);
    } finally {
      await connection.end();
    }
  };

  before(async () => {
    database = await createOsticketDatabase();
    const { prefix } = database;
    await database.query(
      `INSERT INTO ${prefix}user (org_id, default_email_id, status, name, created, updated)
       SELECT 0, 0, 0, CONCAT('User ', seq), NOW() - INTERVAL seq MINUTE, NOW() FROM seq_1_to_${ROWS}`,
    );
    await database.query(
      `INSERT INTO ${prefix}ticket (number, user_id, status_id, dept_id, created, lastupdate, updated)
       SELECT 100000 + seq, seq, 1, 1, NOW() - INTERVAL seq MINUTE, NOW() - INTERVAL seq MINUTE, NOW() FROM seq_1_to_${ROWS}`,
    );
    await database.query(`ANALYZE TABLE ${prefix}ticket, ${prefix}user`);
  });
  after(async () => {
    await server?.stop();
    await asRoot(`DROP USER IF EXISTS ${account}@'%'`);
    await database?.drop();
  });

  test('the start says which index is missing on which table and what it slows, one line each; /readyz says it again', async () => {
    server = await startServer({ databaseUrl: database.url, env: osticketEnv(database) });
    const atStart = warnings(server.output);
    assert.deepEqual(
      atStart.map((line) => [line.when, line.level]),
      OSTICKET_READ_INDEXES.map(() => ['start', 40]),
    );
    for (const [i, index] of OSTICKET_READ_INDEXES.entries()) {
      const line = atStart[i]?.msg ?? '';
      assert.ok(line.startsWith(`ost_${index.table} (about `), line);
      assert.ok(line.includes(`has no index on ${index.column}: ${index.slows}`), line);
      assert.ok(line.includes('deskgate osticket indexes'), line);
    }
    const ready = await fetch(`${server.origin}/readyz`);
    assert.equal(ready.status, 200);
    const running = server;
    const atReadyz = await waitFor(() => {
      const found = warnings(running.output).filter((line) => line.when === 'readyz');
      return found.length === OSTICKET_READ_INDEXES.length ? found : undefined;
    }, "/readyz's warnings");
    assert.deepEqual(
      atReadyz.map((line) => line.msg),
      atStart.map((line) => line.msg),
    );
    await server.stop();
    server = undefined;
  });

  test('`osticket indexes` prints each missing index with the SQL that adds it and the SQL that removes it', async () => {
    const listed = await runCli(['osticket', 'indexes'], osticketEnv(database));
    assert.equal(listed.code, 0, listed.stderr);
    for (const index of OSTICKET_READ_INDEXES) {
      assert.ok(
        listed.stdout.includes(`missing  ost_${index.table}.${index.column}`),
        listed.stdout,
      );
      assert.ok(listed.stdout.includes(`add:  ${addIndexSql('ost_', index)}`), listed.stdout);
      assert.ok(listed.stdout.includes(`undo: ${dropIndexSql('ost_', index)}`), listed.stdout);
    }
    assert.match(listed.stdout, /3 missing; `deskgate osticket indexes --apply` adds them/);
  });

  test('--apply without ALTER on the tables: exit 1 naming the statement, nothing added', async () => {
    await asRoot(`CREATE USER ${account}@'%' IDENTIFIED BY 'change-me'`);
    await asRoot(`GRANT SELECT ON ${database.name}.* TO ${account}@'%'`);
    const url = new URL(database.url);
    url.username = account;
    url.password = 'change-me';
    const refused = await runCli(['osticket', 'indexes', '--apply'], {
      ...osticketEnv(database),
      DESKGATE_DATABASE_URL: url.toString(),
    });
    assert.equal(refused.code, 1, refused.stdout);
    assert.match(
      refused.stderr,
      /refused ALTER TABLE `ost_ticket` ADD INDEX `deskgate_lastupdate`/,
    );
    assert.doesNotMatch(refused.stderr, /change-me/);
    const ours = await database.query<{ name: string }>(
      "SELECT index_name AS name FROM information_schema.statistics WHERE table_schema = DATABASE() AND index_name LIKE 'deskgate%'",
    );
    assert.deepEqual(ours, []);
  });

  test('--apply adds them; then the start is quiet, and the undo SQL takes them away again', async () => {
    const applied = await runCli(
      ['osticket', 'indexes', '--apply', '--json'],
      osticketEnv(database),
    );
    assert.equal(applied.code, 0, applied.stderr);
    const report = JSON.parse(applied.stdout) as {
      added: string[];
      indexes: { present: boolean }[];
    };
    assert.deepEqual(
      report.added,
      OSTICKET_READ_INDEXES.map((index) => addIndexSql('ost_', index)),
    );
    assert.ok(report.indexes.every((index) => index.present));

    server = await startServer({ databaseUrl: database.url, env: osticketEnv(database) });
    assert.deepEqual(warnings(server.output), []);
    await server.stop();
    server = undefined;

    for (const index of OSTICKET_READ_INDEXES) await database.query(dropIndexSql('ost_', index));
    const again = await runCli(['osticket', 'indexes'], osticketEnv(database));
    assert.match(again.stdout, /3 missing/);
  });

  test('the switch-over guide gives the same statements', () => {
    const guide = readFileSync(join(ROOT, 'docs', 'replacing-the-osticket-web-service.md'), 'utf8');
    for (const index of OSTICKET_READ_INDEXES) {
      assert.ok(guide.includes(addIndexSql('ost_', index)), addIndexSql('ost_', index));
      assert.ok(guide.includes(dropIndexSql('ost_', index)), dropIndexSql('ost_', index));
    }
  });
});
