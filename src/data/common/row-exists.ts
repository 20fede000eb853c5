import { type Kysely, sql } from 'kysely';

/** Whether `table` holds a row whose `column` is `value`: a name already taken, a parent that exists. */
export async function rowExists<DB, T extends keyof DB & string>(
  db: Kysely<DB>,
  table: T,
  column: keyof DB[T] & string,
  value: unknown,
): Promise<boolean> {
  const found = await (db as unknown as Kysely<Record<string, object>>)
    .selectFrom(table as string)
    .select(sql<number>`1`.as('found'))
    .where(sql.ref(column), '=', value)
    .executeTakeFirst();
  return found !== undefined;
}
