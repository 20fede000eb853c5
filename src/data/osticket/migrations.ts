import type { Kysely } from 'kysely';
import type { Dialect } from '../dialects/dialect.ts';
import { TIMESTAMP, withId } from '../migrations/column-types.ts';

/**
 * deskgate's own tables in an osTicket database (prefix `deskgate_`). osTicket's tables are
 * never created, altered or migrated by deskgate.
 */
export async function up(db: Kysely<unknown>, { name: dialect }: Dialect): Promise<void> {
  await withId(db.schema.createTable('deskgate_audit_log'), dialect)
    .addColumn('at', TIMESTAMP, (c) => c.notNull())
    .addColumn('api_key_id', 'integer', (c) => c.notNull())
    .addColumn('client_ip', 'varchar(64)', (c) => c.notNull())
    .addColumn('operation', 'varchar(64)', (c) => c.notNull())
    .addColumn('target_id', 'varchar(32)', (c) => c.notNull())
    .execute();
  await withId(db.schema.createTable('deskgate_idempotency_keys'), dialect)
    .addColumn('api_key_id', 'integer', (c) => c.notNull())
    .addColumn('idempotency_key', 'varchar(255)', (c) => c.notNull())
    .addColumn('fingerprint', 'char(64)', (c) => c.notNull())
    .addColumn('user_id', 'integer', (c) => c.notNull())
    .addColumn('created_at', TIMESTAMP, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('idempotency_keys_key_unique')
    .on('deskgate_idempotency_keys')
    .columns(['api_key_id', 'idempotency_key'])
    .unique()
    .execute();
}
