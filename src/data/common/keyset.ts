import { type RawBuilder, type SelectQueryBuilder, type SqlBool, sql } from 'kysely';

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

/** Where a list's position stands: its sort key's value and its id. */
export interface KeysetPosition {
  key: unknown;
  id: number;
}

/** A page of a keyset list: the inclusive range, the position to start after, its size. */
export interface KeysetPageQuery {
  /** Inclusive bounds of the range column; absent: no bound. */
  from: string | undefined;
  to: string | undefined;
  after: KeysetPosition | undefined;
  limit: number;
}

/** A list ordered by a time (tickets, users, tasks), whose cursor is a (created, id) position. */
export function pageByTime(query: {
  from: string | undefined;
  to: string | undefined;
  after: { created: string; id: number } | undefined;
  limit: number;
}): KeysetPageQuery {
  const { from, to, after, limit } = query;
  return { from, to, after: after && { key: after.created, id: after.id }, limit };
}

/**
 * One page of every keyset list, on every table and layout: the rows whose `range` column (the
 * sort key when absent) lies in [from, to], after `after` in (key, id) order, the first `limit`.
 */
export function keysetPage<DB, TB extends keyof DB, O>(
  select: SelectQueryBuilder<DB, TB, O>,
  columns: { key: Column; id: Column; range?: Column },
  { from, to, after, limit }: KeysetPageQuery,
): SelectQueryBuilder<DB, TB, O> {
  const key = referenceTo(columns.key);
  const id = referenceTo(columns.id);
  const range = columns.range === undefined ? key : referenceTo(columns.range);
  let page = select;
  if (from !== undefined) page = page.where(sql<SqlBool>`${range} >= ${from}`);
  if (to !== undefined) page = page.where(sql<SqlBool>`${range} <= ${to}`);
  if (after) page = page.where(afterPosition(key, id, after));
  return page.orderBy(key).orderBy(id).limit(limit);
}
