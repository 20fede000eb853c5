import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { runCli } from '../helpers/cli.ts';
import { ROOT } from '../helpers/paths.ts';
import {
  createOsticketDatabase,
  OSTICKET_SKIP,
  type OsticketDatabase,
  osticketEnv,
} from './osticket-database.ts';

const GUIDE = join(ROOT, 'docs', 'replacing-the-osticket-web-service.md');

/** The statements of the guide's Rollback block that drop tables, for database `name`. */
function rollbackStatements(name: string): string[] {
  const text = readFileSync(GUIDE, 'utf8');
  const section = text.slice(text.indexOf('## Rollback'));
  const block = /```sql\n([\s\S]*?)```/.exec(section)?.[1];
  assert.ok(block, 'the Rollback section has its SQL block');
  return block
    .split(';')
    .map((statement) => statement.trim())
    .filter((statement) => statement.startsWith('DROP TABLE'))
    .map((statement) => statement.replaceAll('osticket.', `\`${name}\`.`));
}

describe("the guide's Rollback removes every table deskgate made", { skip: OSTICKET_SKIP }, () => {
  let db: OsticketDatabase;
  before(async () => {
    db = await createOsticketDatabase();
  });
  after(async () => {
    await db?.drop();
  });

  const tables = async () =>
    (
      await db.query<{ name: string }>(
        'SELECT table_name AS name FROM information_schema.tables WHERE table_schema = ? ORDER BY 1',
        [db.name],
      )
    ).map((row) => row.name);

  test('after migrate, a grant and an admin key, the block leaves osTicket as it was', async () => {
    const osticketTables = (await tables()).filter((name) => !name.startsWith('deskgate_'));
    // Every table deskgate makes: its migrations (a key grant already made them), the admin keys.
    const env = { ...osticketEnv(db), DESKGATE_OSTICKET_ADMIN_WRITES: 'true' };
    // The admin keys' table is made by migrate (or a start) with admin writes on.
    const migrated = await runCli(['migrate'], env);
    assert.equal(migrated.code, 0, migrated.stderr);
    const made = await runCli(['keys', 'create', '--name', 'ops', '--scope', 'admin'], env);
    assert.equal(made.code, 0, made.stderr);
    const own = (await tables()).filter((name) => name.startsWith('deskgate_'));
    assert.ok(own.includes('deskgate_api_keys') && own.includes('deskgate_key_grants'), `${own}`);
    for (const statement of rollbackStatements(db.name)) await db.query(statement);
    assert.deepEqual(await tables(), osticketTables);
  });
});
