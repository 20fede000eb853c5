import { type Kysely, sql } from 'kysely';
import type { Actor } from '../../domain.ts';
import type { OsticketDatabase } from './schema.ts';

/**
 * One row in osTicket's `syslog` (Dashboard → System Logs) for a successful call, at the level
 * osTicket's own API uses for its activity (`Debug`), stamped with the database's clock as
 * osTicket does. `logger` (which osTicket leaves empty) says the row is deskgate's.
 */
export async function insertSyslogEntry(
  db: Kysely<OsticketDatabase>,
  actor: Actor,
  outcome?: string,
): Promise<void> {
  const what = `${actor.operation} by API key ${actor.apiKeyId} from ${actor.clientIp}`;
  await db
    .insertInto('syslog')
    .values({
      log_type: 'Debug',
      title: `API call: ${actor.operation}`,
      log: outcome ? `${what}: ${outcome}` : what,
      logger: 'deskgate',
      ip_address: actor.clientIp.slice(0, 64),
      created: sql<string>`now()`,
      updated: sql<string>`now()`,
    })
    .execute();
}
