import { type RawBuilder, type SqlBool, sql } from 'kysely';

/** Whether a flags column's value (osTicket's bit sets; NULL: none) has `bit`. */
export function hasFlag(flags: unknown, bit: number): boolean {
  return (Number(flags) & bit) !== 0;
}

/** The condition that `column`, a flags column, has `bit`, for a query's where. */
export function flagIsSet(column: string, bit: number): RawBuilder<SqlBool> {
  return sql<SqlBool>`(${sql.ref(column)} & ${bit}) <> 0`;
}
