import {
  type Compilable,
  type Insertable,
  type InsertQueryBuilder,
  type InsertResult,
  type Kysely,
  sql,
} from 'kysely';
import type { Dialect } from '../dialects/dialect.ts';
import { now } from '../time.ts';
import { createdAt, type OwnTimestamps } from './own-timestamps.ts';
import { type Param, prepareQuery } from './prepared-query.ts';

/** Runs an INSERT and returns the new row's id: RETURNING where it exists, the driver's insert id elsewhere. */
export async function insertReturningId<DB, Table extends keyof DB & string>(
  query: InsertQueryBuilder<DB, Table, InsertResult>,
  dialect: Dialect,
): Promise<number> {
  if (dialect.supportsReturning) {
    const row = await query.returning(sql<number>`id`.as('id')).executeTakeFirstOrThrow();
    return Number((row as { id: unknown }).id);
  }
  const { insertId } = await query.executeTakeFirstOrThrow();
  if (insertId === undefined) throw new Error('the database returned no insert id');
  return Number(insertId);
}

/** insertReturningId for a query built once (prepareQuery): returns the new row's id. */
export function prepareInsertReturningId<
  DB,
  Table extends keyof DB & string,
  Values extends object,
>(
  build: (db: Kysely<DB>, param: Param<Values>) => InsertQueryBuilder<DB, Table, InsertResult>,
): (db: Kysely<DB>, values: Values) => Promise<number> {
  const insert = prepareQuery((db: Kysely<DB>, param: Param<Values>): Compilable<unknown> => {
    const query = build(db, param);
    // The compiled query is kept per dialect, so the dialect's adapter decides here.
    return db.getExecutor().adapter.supportsReturning
      ? query.returning(sql<number>`id`.as('id'))
      : query;
  });
  return async (db, values) => {
    const { rows, insertId } = await insert(db, values);
    const id = (rows[0] as { id?: unknown } | undefined)?.id ?? insertId;
    if (id === undefined) throw new Error('the database returned no insert id');
    return Number(id);
  };
}

/** A new row of one of deskgate's own tables, created and updated now: resolves to its id. */
export function insertOwnRow<DB, Table extends keyof DB & string>(
  db: Kysely<DB>,
  dialect: Dialect,
  table: Table,
  values: Omit<Insertable<DB[Table]>, keyof OwnTimestamps>,
): Promise<number> {
  const tables = db as unknown as Kysely<Record<string, object>>;
  const row = { ...values, ...createdAt(now()) };
  return insertReturningId(tables.insertInto(table as string).values(row), dialect);
}
