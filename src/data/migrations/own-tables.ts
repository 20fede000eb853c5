import type { Kysely } from 'kysely';
import type { DialectName } from '../store.ts';
import { createIndexIfMissing, TIMESTAMP, withCharset, withId } from './column-types.ts';

/**
 * The tables deskgate keeps in every layout: the audit log and the idempotency records, named
 * `<prefix>audit_log` and `<prefix>idempotency_keys`. Index names stay unprefixed: the data layer
 * matches unique violations by them. Every step may run again (MySQL commits DDL as it goes, so
 * a start stopped by a missing privilege must be able to simply retry).
 */
export async function createOwnTables(
  db: Kysely<unknown>,
  dialect: DialectName,
  prefix: string,
): Promise<void> {
  await withCharset(
    withId(db.schema.createTable(`${prefix}audit_log`).ifNotExists(), dialect),
    dialect,
  )
    .addColumn('at', TIMESTAMP, (c) => c.notNull())
    .addColumn('api_key_id', 'integer', (c) => c.notNull())
    .addColumn('client_ip', 'varchar(64)', (c) => c.notNull())
    .addColumn('operation', 'varchar(64)', (c) => c.notNull())
    .addColumn('target_id', 'varchar(32)', (c) => c.notNull())
    .execute();

  const idempotency = `${prefix}idempotency_keys`;
  await withCharset(withId(db.schema.createTable(idempotency).ifNotExists(), dialect), dialect)
    .addColumn('api_key_id', 'integer', (c) => c.notNull())
    .addColumn('idempotency_key', 'varchar(255)', (c) => c.notNull())
    .addColumn('fingerprint', 'char(64)', (c) => c.notNull())
    .addColumn('user_id', 'integer', (c) => c.notNull())
    .addColumn('created_at', TIMESTAMP, (c) => c.notNull())
    .execute();
  await createIndexIfMissing(db, dialect, {
    name: 'idempotency_keys_key_unique',
    table: idempotency,
    columns: ['api_key_id', 'idempotency_key'],
    unique: true,
  });
  await createIndexIfMissing(db, dialect, {
    name: 'idempotency_keys_created_at',
    table: idempotency,
    columns: ['created_at'],
  });
}
