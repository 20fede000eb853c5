import type { Kysely } from 'kysely';
import type { Dialect } from '../dialects/dialect.ts';
import { createWebhookTables } from './webhook-tables.ts';

/** Webhooks in an osTicket database: deskgate's own tables, `deskgate_webhooks` and the rest. */
export async function up(db: Kysely<unknown>, { name: dialect }: Dialect): Promise<void> {
  await createWebhookTables(db, dialect, 'deskgate_');
}
