import { type Kysely, sql } from 'kysely';
import { type DataHandle, defineEntity, tablesOf, type WriteTransaction } from '../entity.ts';
import type { DialectName } from '../store.ts';
import { EVENT_TYPES, type EventType, type FeedEvent, type NewEvent } from './event.ts';
import { databaseNowMs, type EventTables, insertEvents, toFeedEvent } from './event-rows.ts';
import { followOsticket, OSTICKET_EVENT_READER_TABLES } from './osticket-event-reader.ts';
import { holdForWrite } from './write-origin.ts';

/** What events/since asks for: the events after position `after` its key may see. */
export interface EventPageQuery {
  /** The last sequence number the reader has (0: from the start). */
  after: number;
  limit: number;
  /** The types to serve (the key's scopes and the caller's `types`); never empty. */
  types: readonly EventType[];
  ticketId?: number | undefined;
  /** How long a gap in the sequence is waited for (decision 381). */
  settleMs: number;
}

export interface EventPage {
  events: FeedEvent[];
  /** The position to read on from: the last event served, or past events the filter left out. */
  next: number;
  /** Nothing more to read now (the reader is caught up, or waits for a gap to settle). */
  endOfStream: boolean;
}

/** The change feed (SPEC §8e): one table in every layout, `deskgate_events` beside osTicket's. */
export interface EventData {
  /**
   * Appends `events` in `trx`. Inside a write of the generic path (Writes.recordWrite) they are
   * held and inserted last before its COMMIT, so their sequence numbers are taken as late as
   * possible (decision 381); elsewhere (a command's own transaction) they are inserted now.
   */
  append(trx: WriteTransaction, events: readonly NewEvent[]): Promise<void>;
  /** A page of the feed, keyset on the sequence, held back at an unsettled gap. */
  page(query: EventPageQuery): Promise<EventPage>;
  /** The position just before the first event that occurred at or after `time` (`YYYY-MM-DD HH:MM:SS`). */
  positionAt(time: string): Promise<number>;
  /** The database's clock, ms since the epoch (what the settle time and the retention use). */
  databaseNowMs(): Promise<number>;
  /** Deletes the events recorded before `beforeMs`, always keeping the newest; resolves to how many. */
  sweep(beforeMs: number): Promise<number>;
  /**
   * osTicket mode: reads osTicket's own history into the feed while this instance holds the
   * installation's reader lock, until `signal` aborts (decision 384). Absent on the own schema,
   * where every write appends its own events.
   */
  readonly follow?: (options: {
    settleMs: number;
    retentionMs: number;
    signal: AbortSignal;
    onError: (error: unknown) => void;
  }) => Promise<void>;
}

/** How far past the reader's position a filtered page looks for a gap in one call. */
const FILTERED_SCAN = 1_000;

/** Appends in `trx` (held to the write's end inside Writes.recordWrite); for entities' own writes. */
export async function appendEvents<DB>(
  trx: Kysely<DB>,
  dialect: DialectName,
  events: readonly NewEvent[],
): Promise<void> {
  if (events.length === 0) return;
  // Any entity's transaction: the events table is named through tablesOf, as every entity does.
  const write = trx as unknown as WriteTransaction;
  if (holdForWrite(write, [...events])) return;
  await insertEvents(tablesOf<EventTables>(write), dialect, events);
}

function makeEvents(handle: DataHandle): EventData {
  const feed = makeFeed(handle);
  if (handle.layout !== 'osticket') return feed;
  return {
    ...feed,
    follow: ({ retentionMs, ...options }) =>
      followOsticket(handle.db, { ...options, sweep: () => feed.sweep(Date.now() - retentionMs) }),
  };
}

/**
 * How far `scan` (rows past `after`, in id order) is settled: up to the first gap in the sequence
 * before a row younger than `settleMs` by the database's clock (decision 380).
 */
function settledPrefix(
  scan: readonly { id: number | string; recorded_ms: number | string; db_now: number | string }[],
  after: number,
  settleMs: number,
): { horizon: number; settled: number; heldBack: boolean } {
  let horizon = after;
  let settled = 0;
  for (const row of scan) {
    const id = Number(row.id);
    if (id !== horizon + 1 && Number(row.db_now) - Number(row.recorded_ms) < settleMs) {
      return { horizon, settled, heldBack: true };
    }
    horizon = id;
    settled++;
  }
  return { horizon, settled, heldBack: false };
}

function makeFeed(handle: DataHandle): EventData {
  const db = tablesOf<EventTables>(handle.db);
  const dialect = handle.dialect.name;
  const allTypes = (types: readonly EventType[]) =>
    EVENT_TYPES.every((type) => types.includes(type));
  return {
    append: (trx, events) => appendEvents(trx, dialect, events),
    async page({ after, limit, types, ticketId, settleMs }) {
      const filtered = ticketId !== undefined || !allTypes(types);
      // The rows past the position, with the database's clock: a gap before a row younger than
      // the settle time may be a transaction not yet committed, so nothing past it is served.
      const past = db.selectFrom('events').where('id', '>', after).orderBy('id');
      const now = databaseNowMs(dialect).as('db_now');
      if (!filtered) {
        // `*` first: MariaDB refuses a bare `*` after another column.
        const scan = await past.selectAll().select(now).limit(limit).execute();
        const { horizon, settled, heldBack } = settledPrefix(scan, after, settleMs);
        const events = scan.slice(0, settled).map(toFeedEvent);
        return { events, next: horizon, endOfStream: heldBack || scan.length < limit };
      }
      // Filtered, the scan only finds how far the feed is settled: its ids, not its rows (parsing
      // a thousand rows of JSON text was most of the page's cost on PostgreSQL).
      const scan = await past.select(['id', 'recorded_ms', now]).limit(FILTERED_SCAN).execute();
      const { horizon, heldBack } = settledPrefix(scan, after, settleMs);
      const more = !heldBack && scan.length === FILTERED_SCAN;
      if (horizon === after) return { events: [], next: after, endOfStream: !more };
      let query = db
        .selectFrom('events')
        .selectAll()
        .where('id', '>', after)
        .where('id', '<=', horizon)
        .where('type', 'in', types);
      if (ticketId !== undefined) query = query.where('ticket_id', '=', ticketId);
      const rows = await query.orderBy('id').limit(limit).execute();
      const events = rows.map(toFeedEvent);
      const last = events.at(-1);
      const next = events.length === limit && last ? last.seq : horizon;
      return { events, next, endOfStream: next === horizon && !more };
    },
    async positionAt(time) {
      const first = await db
        .selectFrom('events')
        .select('id')
        .where('occurred_at', '>=', time)
        .orderBy('occurred_at')
        .orderBy('id')
        .limit(1)
        .executeTakeFirst();
      if (first) return Number(first.id) - 1;
      const last = await db
        .selectFrom('events')
        .select((eb) => eb.fn.max('id').as('id'))
        .executeTakeFirst();
      return Number(last?.id ?? 0);
    },
    async databaseNowMs() {
      const { rows } = await sql<{ now: number }>`select ${databaseNowMs(dialect)} as now`.execute(
        db,
      );
      return Number(rows[0]?.now);
    },
    async sweep(beforeMs) {
      const newest = await db
        .selectFrom('events')
        .select((eb) => eb.fn.max('id').as('id'))
        .executeTakeFirst();
      if (newest?.id === null || newest?.id === undefined) return 0;
      const result = await db
        .deleteFrom('events')
        .where('recorded_ms', '<', beforeMs)
        .where('id', '<', Number(newest.id))
        .executeTakeFirst();
      return Number(result.numDeletedRows);
    },
  };
}

export const events = defineEntity<EventData>({
  name: 'events',
  own: makeEvents,
  osticket: makeEvents,
  osticketRequires: {
    comment:
      "deskgate's change feed (events/since), which it creates at the first start, and osTicket's history it reads into it",
    tables: [
      ...OSTICKET_EVENT_READER_TABLES,
      {
        table: 'events',
        own: true,
        // UPDATE: an erasure keeps the user's events but not their name (erase-user.ts).
        privileges: ['CREATE', 'INDEX', 'SELECT', 'INSERT', 'UPDATE', 'DELETE'],
      },
    ],
  },
});

/**
 * In an erasure's transaction: the events naming user `userId` as their actor keep the id but no
 * longer the name (`marker` in its place); the user's own events hold nothing else of theirs.
 */
export async function forgetUserInEvents<DB>(
  trx: Kysely<DB>,
  userId: number,
  marker: string,
): Promise<number> {
  const result = await tablesOf<EventTables>(trx as unknown as WriteTransaction)
    .updateTable('events')
    .set({ actor_name: marker })
    .where('actor_type', '=', 'user')
    .where('actor_id', '=', userId)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}
