import type { Kysely } from 'kysely';
import type { Dialect } from '../dialects/dialect.ts';
import { createIndexIfMissing } from './column-types.ts';

/**
 * `ticket/all` of one status by last update, the one filtered keyset list without an index of
 * its own (decision 331): without it a page of a rare status walks the last-update index past
 * the tickets of every other status, or reads the status's tickets and sorts them.
 */
export async function up(db: Kysely<unknown>, { name }: Dialect): Promise<void> {
  await createIndexIfMissing(db, name, {
    name: 'tickets_status_last_update_at_id',
    table: 'tickets',
    columns: ['status_id', 'last_update_at', 'id'],
  });
}
