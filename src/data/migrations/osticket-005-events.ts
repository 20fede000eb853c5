import type { Kysely } from 'kysely';
import type { Dialect } from '../dialects/dialect.ts';
import { createEventsTable } from './events-table.ts';

/**
 * The change feed beside osTicket's tables, `deskgate_events`, filled by the reader of osTicket's
 * own history (decision 384).
 */
export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  await createEventsTable(db, dialect.name, 'deskgate_');
}
