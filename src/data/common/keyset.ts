import { type RawBuilder, type SqlBool, sql } from 'kysely';

/** A column as a list's query names it (`tickets.created_at`), or a reference already built. */
type Column = string | RawBuilder<unknown>;

function referenceTo(column: Column): RawBuilder<unknown> {
  return typeof column === 'string' ? sql.ref(column) : column;
}

/**
 * The rows after `(key, id)` in (key, id) order: the `after` condition of every keyset list
 * (tickets, users, tasks, catalogues), on every database and layout (decision 330).
 *
 * Written as `key >= X and (key, id) > (X, Y)`, the one form the three planners all turn into an
 * index range: PostgreSQL and SQLite seek on the row comparison over an index of (key, id);
 * MariaDB/MySQL, whose range optimizer does not use a row comparison, seek on `key >= X` over an
 * index of key (InnoDB's secondary indexes end in the primary key) and check the rest on the few
 * rows of key X. The usual `key > X or (key = X and id > Y)` is planned as a filter by
 * PostgreSQL and SQLite: page k then reads the k × limit rows before it.
 */
export function afterPosition(
  key: Column,
  id: Column,
  position: { key: unknown; id: number },
): RawBuilder<SqlBool> {
  const keyRef = referenceTo(key);
  const idRef = referenceTo(id);
  return sql<SqlBool>`(${keyRef} >= ${position.key} and (${keyRef}, ${idRef}) > (${position.key}, ${position.id}))`;
}
