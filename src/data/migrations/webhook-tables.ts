import { type Kysely, sql } from 'kysely';
import type { DialectName } from '../store.ts';
import { createIndexIfMissing, TIMESTAMP, withCharset, withId } from './column-types.ts';
import { hasColumn } from './generalise-idempotency-records.ts';

/**
 * The webhook tables, `<prefix>webhooks`, `<prefix>webhook_deliveries` and
 * `<prefix>webhook_dispatch` (SPEC §8e): the endpoints with their sealed signing secrets, one
 * row per delivery of an event to an endpoint (the queue and the delivery log at once), and the
 * feed position up to which events have been turned into deliveries. Times that schedule work
 * are epoch milliseconds (a retry may be due in 100 ms); the others are the usual UTC text.
 * Every step may run again (MySQL commits DDL as it goes).
 */
export async function createWebhookTables(
  db: Kysely<unknown>,
  dialect: DialectName,
  prefix: string,
): Promise<void> {
  await withCharset(
    withId(db.schema.createTable(`${prefix}webhooks`).ifNotExists(), dialect),
    dialect,
  )
    .addColumn('url', 'varchar(2048)', (c) => c.notNull())
    .addColumn('events', 'varchar(1024)', (c) => c.notNull())
    .addColumn('description', 'varchar(255)', (c) => c.notNull())
    .addColumn('secret_sealed', 'varchar(255)', (c) => c.notNull())
    .addColumn('enabled', 'integer', (c) => c.notNull())
    .addColumn('disabled_reason', 'varchar(255)')
    .addColumn('failing_since_ms', 'bigint')
    .addColumn('created_at', TIMESTAMP, (c) => c.notNull())
    .addColumn('updated_at', TIMESTAMP, (c) => c.notNull())
    .execute();

  const deliveries = `${prefix}webhook_deliveries`;
  await withCharset(withId(db.schema.createTable(deliveries).ifNotExists(), dialect), dialect)
    .addColumn('webhook_id', 'integer', (c) => c.notNull())
    .addColumn('event_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('event_type', 'varchar(64)', (c) => c.notNull())
    .addColumn('payload', dialect === 'mysql' ? sql`mediumtext` : 'text', (c) => c.notNull())
    .addColumn('status', 'varchar(16)', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull())
    // Due time while pending; while an instance holds it, the end of its lease.
    .addColumn('next_attempt_ms', 'bigint', (c) => c.notNull())
    .addColumn('claim_token', 'varchar(36)')
    .addColumn('last_attempt_at', TIMESTAMP)
    .addColumn('response_status', 'integer')
    .addColumn('error', 'varchar(255)')
    .addColumn('latency_ms', 'integer')
    .addColumn('response_excerpt', 'text')
    .addColumn('created_ms', 'bigint', (c) => c.notNull())
    .addColumn('delivered_at', TIMESTAMP)
    .execute();
  await createIndexIfMissing(db, dialect, {
    name: 'webhook_deliveries_due',
    table: deliveries,
    columns: ['status', 'next_attempt_ms'],
  });
  await createIndexIfMissing(db, dialect, {
    name: 'webhook_deliveries_webhook',
    table: deliveries,
    columns: ['webhook_id', 'id'],
  });
  await createIndexIfMissing(db, dialect, {
    name: 'webhook_deliveries_created',
    table: deliveries,
    columns: ['created_ms'],
  });

  await withCharset(db.schema.createTable(`${prefix}webhook_dispatch`).ifNotExists(), dialect)
    .addColumn('name', 'varchar(32)', (c) => c.primaryKey())
    .addColumn('position', 'varchar(255)', (c) => c.notNull().defaultTo(''))
    .addColumn('updated_at', TIMESTAMP, (c) => c.notNull())
    .execute();
}

/**
 * `<prefix>webhooks.key_id`: the key that subscribed the webhook (webhook/add, or webhook/update
 * of its events or enabling it), whose scopes its deliveries are checked against when sent
 * (decision 393). Null on webhooks made before it, and 0 from the command line: the operator's.
 */
export async function addWebhookOwner(
  db: Kysely<unknown>,
  dialect: DialectName,
  prefix: string,
): Promise<void> {
  const table = `${prefix}webhooks`;
  // MySQL commits DDL as it goes: a migration stopped half-way must be able to run again.
  if (dialect === 'mysql' && (await hasColumn(db, table, 'key_id'))) return;
  await db.schema.alterTable(table).addColumn('key_id', 'integer').execute();
}

/**
 * `<prefix>webhooks.after_event`: the feed position when the webhook was made; it gets the events
 * after it and none before (decision 394). Null on webhooks made before it: their creation time
 * decides, to the second.
 */
export async function addWebhookStart(
  db: Kysely<unknown>,
  dialect: DialectName,
  prefix: string,
): Promise<void> {
  const table = `${prefix}webhooks`;
  if (dialect === 'mysql' && (await hasColumn(db, table, 'after_event'))) return;
  await db.schema.alterTable(table).addColumn('after_event', 'bigint').execute();
}
