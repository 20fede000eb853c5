import type { Kysely } from 'kysely';
import type { DialectName } from '../store.ts';
import { TIMESTAMP, withId } from './column-types.ts';

/**
 * The tables deskgate keeps in every layout: the audit log and the idempotency records, named
 * `<prefix>audit_log` and `<prefix>idempotency_keys`. Index names stay unprefixed: the data layer
 * matches unique violations by them.
 */
export async function createOwnTables(
  db: Kysely<unknown>,
  dialect: DialectName,
  prefix: string,
): Promise<void> {
  await withId(db.schema.createTable(`${prefix}audit_log`), dialect)
    .addColumn('at', TIMESTAMP, (c) => c.notNull())
    .addColumn('api_key_id', 'integer', (c) => c.notNull())
    .addColumn('client_ip', 'varchar(64)', (c) => c.notNull())
    .addColumn('operation', 'varchar(64)', (c) => c.notNull())
    .addColumn('target_id', 'varchar(32)', (c) => c.notNull())
    .execute();

  const idempotency = `${prefix}idempotency_keys`;
  await withId(db.schema.createTable(idempotency), dialect)
    .addColumn('api_key_id', 'integer', (c) => c.notNull())
    .addColumn('idempotency_key', 'varchar(255)', (c) => c.notNull())
    .addColumn('fingerprint', 'char(64)', (c) => c.notNull())
    .addColumn('user_id', 'integer', (c) => c.notNull())
    .addColumn('created_at', TIMESTAMP, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('idempotency_keys_key_unique')
    .on(idempotency)
    .columns(['api_key_id', 'idempotency_key'])
    .unique()
    .execute();
  await db.schema
    .createIndex('idempotency_keys_created_at')
    .on(idempotency)
    .column('created_at')
    .execute();
}
