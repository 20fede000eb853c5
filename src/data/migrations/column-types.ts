import { type ColumnDefinitionBuilder, type CreateTableBuilder, type Kysely, sql } from 'kysely';
import type { DialectName } from '../store.ts';

/** An auto-incrementing integer primary key, spelled as each database wants it. */
export function withId<T extends string>(
  table: CreateTableBuilder<T, never>,
  dialect: DialectName,
): CreateTableBuilder<T, 'id'> {
  if (dialect === 'postgres') return table.addColumn('id', 'serial', (c) => c.primaryKey());
  return table.addColumn('id', 'integer', (c: ColumnDefinitionBuilder) =>
    c.primaryKey().autoIncrement(),
  );
}

/** Timestamps are UTC `YYYY-MM-DD HH:MM:SS` text everywhere, so every database shows the same. */
export const TIMESTAMP = 'varchar(19)';

/**
 * MySQL tables take the database's default charset, which may be utf8mb3 (as in an osTicket
 * database) or latin1: deskgate's own tables say utf8mb4 so every name a caller sends is stored.
 */
export function withCharset<T extends string, C extends string>(
  table: CreateTableBuilder<T, C>,
  dialect: DialectName,
): CreateTableBuilder<T, C> {
  if (dialect !== 'mysql') return table;
  return table.modifyEnd(sql`default character set utf8mb4 collate utf8mb4_unicode_ci`);
}

/**
 * CREATE INDEX that may run again: MySQL does not roll DDL back, so a migration stopped half-way
 * (a missing privilege) must be able to start over. MySQL 8 has no CREATE INDEX IF NOT EXISTS.
 */
export async function createIndexIfMissing(
  db: Kysely<unknown>,
  dialect: DialectName,
  index: { name: string; table: string; columns: string[]; unique?: boolean },
): Promise<void> {
  if (dialect === 'mysql') {
    const { rows } = await sql<{
      n: number;
    }>`select count(*) as n from information_schema.statistics
      where table_schema = database() and table_name = ${index.table} and index_name = ${index.name}`.execute(
      db,
    );
    if (Number(rows[0]?.n ?? 0) > 0) return;
    let builder = db.schema.createIndex(index.name).on(index.table).columns(index.columns);
    if (index.unique) builder = builder.unique();
    await builder.execute();
    return;
  }
  let builder = db.schema
    .createIndex(index.name)
    .ifNotExists()
    .on(index.table)
    .columns(index.columns);
  if (index.unique) builder = builder.unique();
  await builder.execute();
}
