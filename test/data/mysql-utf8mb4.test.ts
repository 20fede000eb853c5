import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { createConnection } from 'mysql2/promise';
import { runCli } from '../helpers/cli.ts';
import { MYSQL_ADMIN_URL } from '../helpers/databases.ts';
import { call, userBody } from '../helpers/http.ts';
import { useTestServer } from '../helpers/test-server.ts';

const skip = MYSQL_ADMIN_URL ? false : 'skipped: DESKGATE_TEST_MYSQL_URL is not set';

describe("deskgate's own MySQL tables are utf8mb4 whatever the database's default", {
  skip,
}, () => {
  const name = `deskgate_t${process.pid}_${randomBytes(4).toString('hex')}`;
  let url: string;

  async function admin<T>(statement: string): Promise<T> {
    const connection = await createConnection(MYSQL_ADMIN_URL as string);
    try {
      return (await connection.query(statement))[0] as T;
    } finally {
      await connection.end();
    }
  }

  before(async () => {
    // As an osTicket server often is: utf8mb3 by default, where an emoji cannot be stored.
    await admin(`CREATE DATABASE ${name} CHARACTER SET utf8mb3 COLLATE utf8mb3_general_ci`);
    const u = new URL(MYSQL_ADMIN_URL as string);
    u.pathname = `/${name}`;
    url = u.toString();
  });
  const server = useTestServer(() => ({ database: url }));
  after(async () => {
    await admin(`DROP DATABASE IF EXISTS ${name}`);
  });

  test('every table deskgate creates is utf8mb4', async () => {
    const tables = await admin<{ name: string; collation: string }[]>(
      `SELECT table_name AS name, table_collation AS collation FROM information_schema.tables WHERE table_schema = '${name}' AND table_name NOT LIKE 'deskgate_migration%'`,
    );
    assert.ok(tables.length >= 7, JSON.stringify(tables));
    for (const table of tables) assert.match(table.collation, /^utf8mb4_/, table.name);
  });

  test('a name with an emoji is stored and read back as sent', async () => {
    const created = await runCli(['keys', 'create', '--name', 'utf8', '--json'], {
      DESKGATE_DATABASE_URL: url,
    });
    assert.equal(created.code, 0, created.stderr);
    const { key } = JSON.parse(created.stdout) as { key: string };
    const reply = await call(server.url, {
      method: 'POST',
      headers: { apikey: key },
      body: userBody({ name: 'Smile 😀 𝄞', email: 'emoji@example.com' }),
    });
    assert.equal(reply.status, 200, reply.text);
    const got = await runCli(['users', 'get', String(reply.body?.data), '--json'], {
      DESKGATE_DATABASE_URL: url,
    });
    assert.equal(got.code, 0, got.stderr);
    assert.equal((JSON.parse(got.stdout) as { name: string }).name, 'Smile 😀 𝄞');
  });
});
