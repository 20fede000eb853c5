import { type InsertQueryBuilder, type InsertResult, sql } from 'kysely';
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
