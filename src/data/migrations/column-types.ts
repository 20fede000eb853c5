import type { ColumnDefinitionBuilder, CreateTableBuilder } from 'kysely';
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
