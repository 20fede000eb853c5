import { type Kysely, sql } from 'kysely';
import type { Dialect } from '../dialects/dialect.ts';

/** Whether `table` has `column` (MySQL: DDL commits as it goes, so a re-run migration asks first). */
export async function hasColumn(
  db: Kysely<unknown>,
  table: string,
  column: string,
): Promise<boolean> {
  const { rows } = await sql<{ n: number }>`select count(*) as n from information_schema.columns
    where table_schema = database() and table_name = ${table} and column_name = ${column}`.execute(
    db,
  );
  return Number(rows[0]?.n ?? 0) > 0;
}

async function indexHasColumn(
  db: Kysely<unknown>,
  table: string,
  index: string,
  column: string,
): Promise<boolean> {
  const { rows } = await sql<{ n: number }>`select count(*) as n from information_schema.statistics
    where table_schema = database() and table_name = ${table} and index_name = ${index}
    and column_name = ${column}`.execute(db);
  return Number(rows[0]?.n ?? 0) > 0;
}

/**
 * The idempotency records become the generic write path's (src/data/writes/): keyed by (API key,
 * operation, key) and holding the answer as sent, instead of user/add's `user_id`. The records
 * already there are user/add's: they keep working, answering `"<user_id>"` as before.
 *
 * Only CREATE, ALTER, INDEX, SELECT, INSERT and DELETE are used, the grants deskgate already has
 * on its own tables in an osTicket database (no UPDATE): the old rows are copied under the new
 * key, then deleted. MySQL commits each statement as it goes, so there every step checks whether
 * it already ran (a start stopped half-way simply starts again); elsewhere the migration is one
 * transaction.
 */
export async function generaliseIdempotencyRecords(
  db: Kysely<unknown>,
  dialect: Dialect,
  table: string,
): Promise<void> {
  const mysql = dialect.name === 'mysql';
  const index = 'idempotency_keys_key_unique';
  if (!mysql || !(await hasColumn(db, table, 'operation'))) {
    await db.schema
      .alterTable(table)
      .addColumn('operation', 'varchar(64)', (c) => c.notNull().defaultTo(''))
      .execute();
  }
  if (!mysql || !(await hasColumn(db, table, 'answer'))) {
    await db.schema.alterTable(table).addColumn('answer', 'text').execute();
  }
  if (!mysql || !(await indexHasColumn(db, table, index, 'operation'))) {
    await db.schema
      .dropIndex(index)
      .$call((b) => (mysql ? b.on(table) : b))
      .execute();
    await db.schema
      .createIndex(index)
      .on(table)
      .columns(['api_key_id', 'operation', 'idempotency_key'])
      .unique()
      .execute();
  }
  if (mysql && !(await hasColumn(db, table, 'user_id'))) return;
  const answer = mysql
    ? sql`concat('"', old.user_id, '"')`
    : sql`'"' || cast(old.user_id as text) || '"'`;
  await sql`insert into ${sql.table(table)}
      (api_key_id, operation, idempotency_key, fingerprint, user_id, answer, created_at)
    select old.api_key_id, 'user/add', old.idempotency_key, old.fingerprint, old.user_id,
      ${answer}, old.created_at
    from ${sql.table(table)} old
    where old.operation = '' and not exists (
      select 1 from ${sql.table(table)} done
      where done.api_key_id = old.api_key_id and done.operation = 'user/add'
        and done.idempotency_key = old.idempotency_key)`.execute(db);
  await sql`delete from ${sql.table(table)} where operation = ''`.execute(db);
  await db.schema.alterTable(table).dropColumn('user_id').execute();
}
