import type { Kysely } from 'kysely';
import type { DialectName } from '../store.ts';
import { createIndexIfMissing, TIMESTAMP, withCharset, withId } from './column-types.ts';

/**
 * The change feed (SPEC §8e, decision 380): one row per event, `id` its sequence number (SQLite's
 * AUTOINCREMENT, so a number is never taken twice even once the rows are swept). `recorded_ms` is
 * the database's clock when the row was inserted, in milliseconds: the settle time and the
 * retention are measured on it. Every step may run again (MySQL commits DDL as it goes).
 */
export async function createEventsTable(
  db: Kysely<unknown>,
  dialect: DialectName,
  prefix: string,
): Promise<void> {
  const table = `${prefix}events`;
  await withCharset(withId(db.schema.createTable(table).ifNotExists(), dialect), dialect)
    .addColumn('event_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('type', 'varchar(32)', (c) => c.notNull())
    .addColumn('occurred_at', TIMESTAMP, (c) => c.notNull())
    .addColumn('recorded_ms', 'bigint', (c) => c.notNull())
    .addColumn('ticket_id', 'integer')
    .addColumn('ticket_number', 'varchar(32)')
    .addColumn('user_id', 'integer')
    .addColumn('actor_type', 'varchar(8)', (c) => c.notNull())
    .addColumn('actor_id', 'integer')
    .addColumn('actor_name', 'varchar(255)')
    .addColumn('api_key_id', 'integer')
    .addColumn('changes', 'text', (c) => c.notNull())
    .addColumn('data', 'text', (c) => c.notNull())
    // osTicket mode: osTicket's thread id, which names the ticket of its `deleted` event (the
    // ticket and thread rows are gone by then; decision 384). Null on the own schema.
    .addColumn('thread_id', 'integer')
    .execute();
  await createIndexIfMissing(db, dialect, {
    name: 'events_event_id_unique',
    table,
    columns: ['event_id'],
    unique: true,
  });
  // events/since with ticket_id, and start_time's first position.
  await createIndexIfMissing(db, dialect, {
    name: 'events_ticket_id',
    table,
    columns: ['ticket_id', 'id'],
  });
  await createIndexIfMissing(db, dialect, {
    name: 'events_occurred_at',
    table,
    columns: ['occurred_at', 'id'],
  });
  await createIndexIfMissing(db, dialect, {
    name: 'events_thread_id',
    table,
    columns: ['thread_id'],
  });
  await createIndexIfMissing(db, dialect, {
    name: 'events_recorded_ms',
    table,
    columns: ['recorded_ms'],
  });
}
