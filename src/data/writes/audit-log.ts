import type { Generated, Kysely } from 'kysely';
import type { Actor } from '../../domain.ts';
import { type Param, prepareQuery } from '../common/prepared-query.ts';
import type { NewEvent } from '../events/event.ts';
import {
  databaseNowMs,
  type EventTables,
  type EventValues,
  eventColumns,
  insertEvents,
  manyEventRows,
  valuesOf,
} from '../events/event-rows.ts';
import type { DialectName } from '../store.ts';

/** deskgate's record of every write, in every layout (`deskgate_audit_log` beside osTicket's tables). */
export interface AuditLogTable {
  id: Generated<number>;
  at: string;
  api_key_id: number;
  client_ip: string;
  operation: string;
  target_id: string;
}

export interface AuditLogTables {
  audit_log: AuditLogTable;
}

/** One write's audit entry: who made it, what it wrote, when. */
export type AuditEntry = Actor & { targetId: string; at: string };

/** The entry's columns, each named value from `param` (a prepared query's parameter, or the value). */
function entryColumns(param: Param<AuditEntry>) {
  return {
    at: param('at'),
    api_key_id: param('apiKeyId'),
    client_ip: param('clientIp'),
    operation: param('operation'),
    target_id: param('targetId'),
  };
}

const insertEntry = prepareQuery((db: Kysely<AuditLogTables>, param: Param<AuditEntry>) =>
  db.insertInto('audit_log').values(entryColumns(param)),
);

/**
 * PostgreSQL: the entry and the write's one event in one statement (a data-modifying CTE), one
 * round trip where two were: most of what an event added to a reply's CPU (bench/event-cost.ts).
 * The CTE's INSERT touches no `events` row, so the events' sequence numbers are as before.
 */
const insertEntryAndEvent = prepareQuery(
  (db: Kysely<AuditLogTables & EventTables>, param: Param<AuditEntry & EventValues>) =>
    db
      .with('audit', (db) => db.insertInto('audit_log').values(entryColumns(param)))
      .insertInto('events')
      .values(eventColumns(param, () => databaseNowMs('postgres'))),
);

/** Records a successful write; called inside the write's transaction so neither exists without the other. */
export async function insertAuditEntry(
  trx: Kysely<AuditLogTables>,
  entry: AuditEntry,
): Promise<void> {
  await insertEntry(trx, entry);
}

/**
 * Records the write's audit entry (when `entry` is given) and inserts its `events`, the last
 * statements of its transaction (decision 381); in one statement on PostgreSQL.
 */
export async function insertAuditEntryAndEvents(
  trx: Kysely<AuditLogTables & EventTables>,
  dialect: DialectName,
  entry: AuditEntry | undefined,
  events: readonly NewEvent[],
): Promise<void> {
  const [only] = events;
  if (entry === undefined || dialect !== 'postgres' || only === undefined) {
    if (entry !== undefined) await insertAuditEntry(trx, entry);
    await insertEvents(trx, dialect, events);
  } else if (events.length === 1) {
    await insertEntryAndEvent(trx, { ...entry, ...valuesOf(only, 0) });
  } else {
    await trx
      .with('audit', (db) => db.insertInto('audit_log').values(entryColumns((name) => entry[name])))
      .insertInto('events')
      .values(manyEventRows(dialect, events))
      .execute();
  }
}
