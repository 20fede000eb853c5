import type { Kysely } from 'kysely';
import type { Dialect } from '../dialects/dialect.ts';
import { generaliseIdempotencyRecords } from './generalise-idempotency-records.ts';

/** Idempotency records for any write, not user/add's alone (generaliseIdempotencyRecords). */
export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  await generaliseIdempotencyRecords(db, dialect, 'idempotency_keys');
}
