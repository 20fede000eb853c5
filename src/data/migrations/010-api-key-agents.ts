import type { Kysely } from 'kysely';
import type { Dialect } from '../dialects/dialect.ts';
import { hasColumn } from './generalise-idempotency-records.ts';

/**
 * The agents a key may act as when it writes tickets (SPEC §4a): `agents` is `any`, agent ids
 * separated by commas, or '' for none. A key made before it with `tickets:write` keeps acting as
 * any agent, as it did when its admin made it; every other key gets none (decision 312).
 */
export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  // MySQL commits DDL as it goes: a migration stopped half-way must be able to run again.
  if (!(dialect.name === 'mysql' && (await hasColumn(db, 'api_keys', 'agents')))) {
    await db.schema
      .alterTable('api_keys')
      .addColumn('agents', 'varchar(255)', (c) => c.notNull().defaultTo(''))
      .execute();
  }
  const keys = db as Kysely<{ api_keys: { scopes: string; agents: string } }>;
  await keys
    .updateTable('api_keys')
    .set({ agents: 'any' })
    .where('scopes', 'like', '%tickets:write%')
    .execute();
}
