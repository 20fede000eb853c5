import { type Kysely, sql } from 'kysely';
import type { Dialect } from '../dialects/dialect.ts';

/** As many characters as a phone's digits can take (user/add allows 20). */
const PHONE = 'varchar(32)';

/**
 * `users.phone` becomes text, so that digits are kept as typed ("0612345678" keeps its zero, as
 * osTicket's phone field does). Existing numbers are kept as their digits; 0 (no phone) becomes
 * ''. Each step looks at the table first: MySQL does not roll DDL back, so a migration stopped
 * half-way must be able to run again.
 */
export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  const columnsOf = async () => {
    const { rows } = await (dialect.name === 'sqlite'
      ? sql<{ name: string }>`select name from pragma_table_info('users')`
      : sql<{ name: string }>`select column_name as name from information_schema.columns
          where table_schema = ${sql.raw(dialect.name === 'mysql' ? 'database()' : 'current_schema()')}
          and table_name = 'users'`
    ).execute(db);
    return new Set(rows.map((row) => row.name));
  };
  let columns = await columnsOf();
  if (!columns.has('phone_text'))
    await db.schema
      .alterTable('users')
      .addColumn('phone_text', sql.raw(PHONE), (c) => c.notNull().defaultTo(''))
      .execute();
  if (columns.has('phone')) {
    const text = sql.raw(dialect.name === 'mysql' ? 'char' : 'text');
    await sql`update users set phone_text =
      case when cast(phone as ${text}) = '0' then '' else cast(phone as ${text}) end`.execute(db);
    await db.schema.alterTable('users').dropColumn('phone').execute();
  }
  columns = await columnsOf();
  if (columns.has('phone_text'))
    await db.schema.alterTable('users').renameColumn('phone_text', 'phone').execute();
}
