import type { Kysely } from 'kysely';
import type { Dialect } from '../dialects/dialect.ts';
import { createOwnTables } from './own-tables.ts';

/**
 * deskgate's own tables in an osTicket database (prefix `deskgate_`). osTicket's tables are
 * never created, altered or migrated by deskgate.
 */
export async function up(db: Kysely<unknown>, { name: dialect }: Dialect): Promise<void> {
  await createOwnTables(db, dialect, 'deskgate_');
}
