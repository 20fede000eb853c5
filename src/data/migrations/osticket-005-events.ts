import type { Kysely } from 'kysely';
import type { Dialect } from '../dialects/dialect.ts';
import { createIndexIfMissing, withCharset } from './column-types.ts';
import { createEventsTable } from './events-table.ts';

/**
 * The change feed beside osTicket's tables, `deskgate_events`, filled by the reader of osTicket's
 * own history (decision 384): where it has read to in `deskgate_event_positions`, and the audit
 * log indexed by target so each change deskgate made through osTicket is matched to its key.
 */
export async function up(db: Kysely<unknown>, { name: dialect }: Dialect): Promise<void> {
  await createEventsTable(db, dialect, 'deskgate_');
  await withCharset(db.schema.createTable('deskgate_event_positions').ifNotExists(), dialect)
    // Defaults: the start's grant check probes INSERT with an empty row.
    .addColumn('source', 'varchar(32)', (c) => c.primaryKey().defaultTo(''))
    .addColumn('position', 'bigint', (c) => c.notNull().defaultTo(0))
    .execute();
  await createIndexIfMissing(db, dialect, {
    name: 'audit_log_target',
    table: 'deskgate_audit_log',
    columns: ['target_id', 'operation'],
  });
}
