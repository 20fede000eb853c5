import {
  type Compilable,
  type InsertQueryBuilder,
  type InsertResult,
  type Kysely,
  sql,
} from 'kysely';
import { type Param, prepareQuery } from '../common/prepared-query.ts';
import type { Dialect } from '../dialects/dialect.ts';
import type { Database } from '../schema.ts';

/** Runs an INSERT and returns the new row's id: RETURNING where it exists, the driver's insert id elsewhere. */
export async function insertReturningId<Table extends keyof Database>(
  query: InsertQueryBuilder<Database, Table, InsertResult>,
  dialect: Dialect,
): Promise<number> {
  if (dialect.supportsReturning) {
    const row = await query.returning(sql<number>`id`.as('id')).executeTakeFirstOrThrow();
    return Number(row.id);
  }
  const { insertId } = await query.executeTakeFirstOrThrow();
  if (insertId === undefined) throw new Error('the database returned no insert id');
  return Number(insertId);
}

/** insertReturningId for a query built once (prepareQuery): returns the new row's id. */
export function prepareInsertReturningId<Table extends keyof Database, Values extends object>(
  build: (
    db: Kysely<Database>,
    param: Param<Values>,
  ) => InsertQueryBuilder<Database, Table, InsertResult>,
): (db: Kysely<Database>, values: Values) => Promise<number> {
  const insert = prepareQuery((db: Kysely<Database>, param: Param<Values>): Compilable<unknown> => {
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
