import type { Kysely } from 'kysely';
import type { Dialect } from '../dialects/dialect.ts';
import { addWebhookStart } from './webhook-tables.ts';

/** `deskgate_webhooks` remember the feed position they were made at (decision 394). */
export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  await addWebhookStart(db, dialect.name, 'deskgate_');
}
