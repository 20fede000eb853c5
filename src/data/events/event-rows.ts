import { randomUUID } from 'node:crypto';
import { type Generated, type Kysely, type RawBuilder, sql } from 'kysely';
import { type Param, prepareQuery } from '../common/prepared-query.ts';
import type { DialectName } from '../store.ts';
import type { EventActor, EventType, FeedEvent, NewEvent } from './event.ts';

/** deskgate's `events` (migration 014; `deskgate_events` in an osTicket database). */
export interface EventTable {
  id: Generated<number>;
  event_id: string;
  type: string;
  occurred_at: string;
  recorded_ms: number;
  ticket_id: number | null;
  ticket_number: string | null;
  user_id: number | null;
  actor_type: string;
  actor_id: number | null;
  actor_name: string | null;
  api_key_id: number | null;
  changes: string;
  data: string;
  thread_id: number | null;
}

export interface EventTables {
  events: EventTable;
}

/** The database's clock in milliseconds, where the row is inserted (one clock for every instance). */
export function databaseNowMs(dialect: DialectName): RawBuilder<number> {
  switch (dialect) {
    case 'postgres':
      return sql<number>`(extract(epoch from clock_timestamp()) * 1000)::bigint`;
    case 'mysql':
      return sql<number>`cast(unix_timestamp(current_timestamp(3)) * 1000 as signed)`;
    default:
      // One process writes an SQLite file at a time, on the machine that reads it.
      return sql<number>`${Date.now()}`;
  }
}

export function newEventId(): string {
  return `evt_${randomUUID().replaceAll('-', '')}`;
}

/** An `events` row's values, its sequence number left to the database. */
export type EventValues = Omit<EventTable, 'id'>;

export function valuesOf(event: NewEvent, recordedMs: number): EventValues {
  return {
    event_id: event.id ?? newEventId(),
    type: event.type,
    occurred_at: event.occurredAt,
    recorded_ms: recordedMs,
    ticket_id: event.ticket?.id ?? null,
    ticket_number: event.ticket?.number ?? null,
    user_id: event.user?.id ?? null,
    actor_type: event.actor.type,
    actor_id: event.actor.id,
    actor_name: event.actor.name,
    api_key_id: event.actor.api_key_id ?? null,
    changes: JSON.stringify(event.changes ?? {}),
    data: JSON.stringify(event.data ?? {}),
    thread_id: event.threadId ?? null,
  };
}

/**
 * One event's INSERT, built once per dialect (prepared-query.ts): nearly every write appends one
 * event at a time, and Kysely building and compiling a 14-column insert cost more CPU than
 * SQLite took to run it (bench/event-cost.ts). The database's clock is SQL on PostgreSQL and
 * MariaDB; on SQLite it is this process's, a value.
 */
const insertOne = {
  sqlite: prepareInsert(() => undefined),
  postgres: prepareInsert(() => databaseNowMs('postgres')),
  mysql: prepareInsert(() => databaseNowMs('mysql')),
};

function prepareInsert(clock: () => RawBuilder<number> | undefined) {
  return prepareQuery((db: Kysely<EventTables>, param: Param<EventValues>) =>
    db.insertInto('events').values(eventColumns(param, clock)),
  );
}

/** One event's columns in a prepared INSERT: each a parameter, `recorded_ms` the `clock`'s SQL if any. */
export function eventColumns(
  param: Param<EventValues>,
  clock: () => RawBuilder<number> | undefined,
) {
  return {
    event_id: param('event_id'),
    type: param('type'),
    occurred_at: param('occurred_at'),
    recorded_ms: clock() ?? param('recorded_ms'),
    ticket_id: param('ticket_id'),
    ticket_number: param('ticket_number'),
    user_id: param('user_id'),
    actor_type: param('actor_type'),
    actor_id: param('actor_id'),
    actor_name: param('actor_name'),
    api_key_id: param('api_key_id'),
    changes: param('changes'),
    data: param('data'),
    thread_id: param('thread_id'),
  };
}

/** Several events' rows in one INSERT's VALUES, in order (their sequence numbers follow it). */
export function manyEventRows(dialect: DialectName, events: readonly NewEvent[]) {
  const recorded = databaseNowMs(dialect);
  return events.map((event) => ({ ...valuesOf(event, 0), recorded_ms: recorded }));
}

/** Inserts `events` now, in `trx` (one statement). */
export async function insertEvents(
  trx: Kysely<EventTables>,
  dialect: DialectName,
  events: readonly NewEvent[],
): Promise<void> {
  const [only] = events;
  if (only === undefined) return;
  // SQLite's clock is read here (one process writes the file); elsewhere the SQL reads it.
  if (events.length === 1) {
    await insertOne[dialect](trx, valuesOf(only, Date.now()));
    return;
  }
  await trx.insertInto('events').values(manyEventRows(dialect, events)).execute();
}

export type EventRow = {
  id: number | string;
  event_id: string;
  type: string;
  occurred_at: string;
  ticket_id: number | string | null;
  ticket_number: string | null;
  user_id: number | string | null;
  actor_type: string;
  actor_id: number | string | null;
  actor_name: string | null;
  api_key_id: number | string | null;
  changes: string;
  data: string;
};

const optionalNumber = (value: number | string | null) => (value === null ? null : Number(value));

export function toFeedEvent(row: EventRow): FeedEvent {
  const apiKeyId = optionalNumber(row.api_key_id);
  const actor: EventActor = {
    type: row.actor_type as EventActor['type'],
    id: optionalNumber(row.actor_id),
    name: row.actor_name,
    ...(apiKeyId === null ? {} : { api_key_id: apiKeyId }),
  };
  return {
    id: row.event_id,
    seq: Number(row.id),
    type: row.type as EventType,
    occurred_at: `${row.occurred_at.slice(0, 19).replace(' ', 'T')}Z`,
    ...(row.ticket_id === null
      ? {}
      : { ticket: { id: Number(row.ticket_id), number: row.ticket_number ?? '' } }),
    ...(row.user_id === null ? {} : { user: { id: Number(row.user_id) } }),
    actor,
    changes: JSON.parse(row.changes) as Record<string, unknown>,
    data: JSON.parse(row.data) as Record<string, unknown>,
  };
}
