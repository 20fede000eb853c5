import type { Kysely } from 'kysely';
import type { Dialect } from '../dialects/dialect.ts';
import { addWebhookOwner } from './webhook-tables.ts';

/** Webhooks remember the key that subscribed them (decision 393). */
export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  await addWebhookOwner(db, dialect.name, '');
}
