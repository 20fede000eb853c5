import type { Kysely } from 'kysely';
import type { Dialect } from '../dialects/dialect.ts';
import { findBinaryCollation, makeColumnBinary } from './binary-collation.ts';

/** Idempotency-Keys that differ only in case are distinct keys, as on SQLite and PostgreSQL. */
export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  if (dialect.name !== 'mysql') return;
  await makeColumnBinary(
    db,
    'deskgate_idempotency_keys',
    'idempotency_key',
    'varchar(255)',
    await findBinaryCollation(db),
  );
}
