import type { Kysely } from 'kysely';
import type { Dialect } from '../dialects/dialect.ts';
import { createEventsTable } from './events-table.ts';

/** The change feed, `events` (SPEC §8e, decision 380). */
export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  await createEventsTable(db, dialect.name, '');
}
