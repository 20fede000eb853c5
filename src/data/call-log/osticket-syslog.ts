import { type Generated, type Kysely, sql } from 'kysely';
import type { Actor } from '../../domain.ts';

/** What osTicket's admin panel shows under Dashboard → System Logs. */
export interface OstSyslogTable {
  log_id: Generated<number>;
  log_type: 'Debug' | 'Warning' | 'Error';
  title: string;
  log: string;
  logger: string;
  ip_address: string;
  created: string;
  updated: string;
}

export interface OsticketSyslogTables {
  syslog: OstSyslogTable;
}

/**
 * One row in osTicket's `syslog` (Dashboard → System Logs) for a successful call, at the level
 * osTicket's own API uses for its activity (`Debug`), stamped with the database's clock as
 * osTicket does. `logger` (which osTicket leaves empty) says the row is deskgate's.
 */
export async function insertSyslogEntry(
  db: Kysely<OsticketSyslogTables>,
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
