import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { createConnection } from 'mysql2/promise';
import { runCli } from '../helpers/cli.ts';
import { MYSQL_ADMIN_URL } from '../helpers/databases.ts';
import { ROOT } from '../helpers/paths.ts';

/** The `mysql -e "…"` statements of docs/running-on-mysql.md's set-up, in order. */
function documentedStatements(): string[] {
  const text = readFileSync(join(ROOT, 'docs', 'running-on-mysql.md'), 'utf8');
  return [...text.matchAll(/^mysql -e "(.+)"$/gm)].map((match) => match[1] ?? '');
}

/**
 * docs/running-on-mysql.md followed literally, as a new user would: its statements run as the
 * MySQL root user, then migrate and keys create as the user they make (not as root).
 */
describe('MySQL/MariaDB: the set-up docs/running-on-mysql.md gives', {
  skip: MYSQL_ADMIN_URL ? false : 'DESKGATE_TEST_MYSQL_URL is not set',
}, () => {
  const suffix = randomBytes(4).toString('hex');
  const database = `deskgate_doc_${suffix}`;
  const user = `deskgate_doc_${suffix}`;
  const localise = (statement: string) =>
    statement
      .replaceAll("'deskgate'@", `'${user}'@`)
      .replace(/\bdeskgate(\.\*|\s|$)/, `${database}$1`);

  async function asAdmin(statements: string[]): Promise<void> {
    assert.ok(MYSQL_ADMIN_URL);
    const connection = await createConnection(MYSQL_ADMIN_URL);
    try {
      for (const statement of statements) await connection.query(statement);
    } finally {
      await connection.end();
    }
  }

  after(async () => {
    await asAdmin([`DROP DATABASE IF EXISTS ${database}`, `DROP USER IF EXISTS '${user}'@'%'`]);
  });

  test('its statements make a user that migrate and keys create work as', async () => {
    const statements = documentedStatements();
    assert.ok(
      statements.some((statement) => statement.startsWith('CREATE USER')),
      'the docs create no user, though their URL logs in as one',
    );
    await asAdmin(statements.map(localise));
    assert.ok(MYSQL_ADMIN_URL);
    const url = new URL(MYSQL_ADMIN_URL);
    url.username = user;
    url.password = 'secret';
    url.pathname = `/${database}`;
    const migrated = await runCli(['migrate', '--database', url.href]);
    assert.equal(migrated.code, 0, migrated.stderr);
    const created = await runCli([
      'keys',
      'create',
      '--name',
      'portal',
      '--json',
      '--database',
      url.href,
    ]);
    assert.equal(created.code, 0, created.stderr);
    assert.equal((JSON.parse(created.stdout) as { name: string }).name, 'portal');
  });
});
