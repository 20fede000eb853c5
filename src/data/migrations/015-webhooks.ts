import { type Kysely, sql } from 'kysely';
import type { Dialect } from '../dialects/dialect.ts';
import { createWebhookTables } from './webhook-tables.ts';

/**
 * Webhooks (SPEC §8e): their tables, and room in `api_keys.scopes` for `webhooks:manage` (a key
 * with every scope no longer fits 64 characters; SQLite does not enforce the length).
 */
export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  if (dialect.name === 'postgres') {
    await sql`alter table api_keys alter column scopes type varchar(255)`.execute(db);
  } else if (dialect.name === 'mysql') {
    await sql`alter table api_keys modify scopes varchar(255) not null`.execute(db);
  }
  await createWebhookTables(db, dialect.name, '');
}
