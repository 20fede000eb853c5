import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import pg from 'pg';
import { runCli } from '../helpers/cli.ts';
import { assertCleanFailure } from './cli-assertions.ts';

const adminUrl = process.env.DESKGATE_TEST_POSTGRES_URL;

/** As its owner or a superuser would: one statement on `database` of the shared server. */
async function runAsAdmin(database: string, sql: string): Promise<pg.QueryResult> {
  assert.ok(adminUrl);
  const url = new URL(adminUrl);
  url.pathname = `/${database}`;
  const client = new pg.Client({ connectionString: url.href });
  await client.connect();
  try {
    return await client.query(sql);
  } finally {
    await client.end();
  }
}

/**
 * The normal production set-up on PostgreSQL 15 and newer: a dedicated role in a database whose
 * `public` schema it may not create in. Older servers let every role create there, so the test
 * database takes that away as PostgreSQL 15 does (REVOKE CREATE ON SCHEMA public FROM PUBLIC).
 */
describe('PostgreSQL: a role without CREATE on the public schema', {
  skip: adminUrl ? false : 'DESKGATE_TEST_POSTGRES_URL is not set',
}, () => {
  const suffix = randomBytes(4).toString('hex');
  const role = `deskgate_role_${suffix}`;
  const databases = [`deskgate_grant_${suffix}`, `deskgate_own_schema_${suffix}`];
  const urlOf = (database: string) => {
    assert.ok(adminUrl);
    const url = new URL(adminUrl);
    url.username = role;
    url.password = 'role-password';
    url.pathname = `/${database}`;
    return url.href;
  };

  before(async () => {
    await runAsAdmin('postgres', `CREATE ROLE ${role} LOGIN PASSWORD 'role-password'`);
    for (const database of databases) {
      await runAsAdmin('postgres', `CREATE DATABASE ${database}`);
      await runAsAdmin(database, 'REVOKE CREATE ON SCHEMA public FROM PUBLIC');
    }
  });
  after(async () => {
    for (const database of databases)
      await runAsAdmin('postgres', `DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
    await runAsAdmin('postgres', `DROP ROLE IF EXISTS ${role}`);
  });

  // Issue 37, item 13: the statements name the role the URL logs in as, ready to paste.
  const fix = new RegExp(
    `permission denied for schema public; .*GRANT CREATE ON SCHEMA public TO ${role}, .*\\(CREATE SCHEMA AUTHORIZATION ${role}\\) .*docs/running-on-postgresql\\.md`,
  );

  test('migrate and serve fail with one line naming the GRANT or the schema to create', async () => {
    const url = urlOf(databases[0] ?? '');
    assertCleanFailure(await runCli(['migrate', '--database', url]), 1, fix);
    assertCleanFailure(
      await runCli(['serve'], {
        DESKGATE_DATABASE_URL: url,
        PORT: '0',
        DESKGATE_LOG_LEVEL: 'silent',
      }),
      1,
      fix,
    );
  });

  test('the GRANT the docs give lets migrate create the tables in public', async () => {
    const database = databases[0] ?? '';
    await runAsAdmin(database, `GRANT CREATE ON SCHEMA public TO ${role}`);
    const result = await runCli(['migrate', '--database', urlOf(database)]);
    assert.equal(result.code, 0, result.stderr);
    const { rows } = await runAsAdmin(
      database,
      "SELECT tableowner FROM pg_tables WHERE schemaname = 'public' AND tablename = 'topics'",
    );
    assert.deepEqual(rows, [{ tableowner: role }]);
  });

  test('CREATE SCHEMA AUTHORIZATION, as the docs give it, puts the tables in the role’s schema', async () => {
    const database = databases[1] ?? '';
    await runAsAdmin(database, `CREATE SCHEMA AUTHORIZATION ${role}`);
    const result = await runCli(['migrate', '--database', urlOf(database)]);
    assert.equal(result.code, 0, result.stderr);
    const { rows } = await runAsAdmin(
      database,
      "SELECT schemaname FROM pg_tables WHERE tablename = 'topics'",
    );
    assert.deepEqual(rows, [{ schemaname: role }]);
  });
});
