import type { Kysely } from 'kysely';
import type { Dialect } from '../dialects/dialect.ts';
import { TIMESTAMP } from './column-types.ts';
import { hasColumn } from './generalise-idempotency-records.ts';

/**
 * API keys may expire (`keys create --expires`) and be rotated (`keys rotate`): `expires_at` is
 * when the key stops working, `replaced_by` the key that took its place. Both null on older keys.
 */
export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  for (const [column, type] of [
    ['expires_at', TIMESTAMP],
    ['replaced_by', 'integer'],
  ] as const) {
    // MySQL commits DDL as it goes: a migration stopped half-way must be able to run again.
    if (dialect.name === 'mysql' && (await hasColumn(db, 'api_keys', column))) continue;
    await db.schema.alterTable('api_keys').addColumn(column, type).execute();
  }
}
