import { setTimeout as sleep } from 'node:timers/promises';
import { type Kysely, sql } from 'kysely';
import { tablesOf } from '../entity.ts';
import type { OsticketTableRequirement } from '../osticket/osticket-requirements.ts';
import { formatTimestamp, timestampToMs } from '../time.ts';
import type { AuditLogTable } from '../writes/audit-log.ts';
import type { EventActor, NewEvent } from './event.ts';
import { type EventTable, type EventTables, insertEvents } from './event-rows.ts';
import { feedEventOfEntry, feedEventOfThreadEvent } from './thread-events.ts';

/**
 * The osTicket mode's feed (decision 384): a reader of osTicket's own history (`thread_event`,
 * `thread_entry`, `user`) with read-only grants, appending to `deskgate_events`. One reader per
 * installation: the instance holding a MySQL named lock (GET_LOCK, released by the server if the
 * connection dies) reads; the others try again every poll.
 */

interface ReaderTables {
  thread_event: {
    id: number;
    thread_id: number;
    thread_type: string;
    event_id: number | null;
    staff_id: number;
    team_id: number;
    dept_id: number;
    topic_id: number;
    data: string | null;
    username: string;
    uid: number | null;
    uid_type: string;
    timestamp: string;
  };
  event: { id: number; name: string };
  thread: { id: number; object_id: number; object_type: string };
  thread_entry: {
    id: number;
    thread_id: number;
    type: string;
    staff_id: number;
    user_id: number;
    poster: string;
    flags: number;
    created: string;
  };
  ticket: { ticket_id: number; number: string | null };
  task: { id: number; number: string | null; object_id: number; object_type: string };
  user: { id: number; name: string; created: string };
  staff: { staff_id: number; firstname: string | null; lastname: string | null };
  events: EventTable;
  event_positions: { source: string; position: number };
  audit_log: AuditLogTable;
}

type Db = Kysely<ReaderTables>;

/** What the reader needs of osTicket's tables and deskgate's, for the grants and the start check. */
export const OSTICKET_EVENT_READER_TABLES: readonly OsticketTableRequirement[] = [
  {
    table: 'thread_event',
    privileges: ['SELECT'],
    columns: [
      'id',
      'thread_id',
      'thread_type',
      'event_id',
      'staff_id',
      'team_id',
      'dept_id',
      'topic_id',
      'data',
      'username',
      'uid',
      'uid_type',
      'timestamp',
    ],
  },
  { table: 'event', privileges: ['SELECT'], columns: ['id', 'name'] },
  { table: 'thread', privileges: ['SELECT'], columns: ['id', 'object_id', 'object_type'] },
  {
    table: 'thread_entry',
    privileges: ['SELECT'],
    columns: ['id', 'thread_id', 'type', 'staff_id', 'user_id', 'poster', 'flags', 'created'],
  },
  { table: 'ticket', privileges: ['SELECT'], columns: ['ticket_id', 'number'] },
  {
    table: 'task',
    privileges: ['SELECT'],
    columns: ['id', 'number', 'object_id', 'object_type'],
  },
  { table: 'user', privileges: ['SELECT'], columns: ['id', 'name', 'created'] },
  { table: 'staff', privileges: ['SELECT'], columns: ['staff_id', 'firstname', 'lastname'] },
  {
    table: 'event_positions',
    own: true,
    columns: ['source', 'position'],
    privileges: ['CREATE', 'SELECT', 'INSERT', 'UPDATE'],
    note: 'where the feed has read osTicket’s history to',
  },
];

/** How often the leader reads, and how often the others try to become it. */
export const READER_INTERVAL_MS = 1_000;
/**
 * A row is read once it has been seen this long: deskgate's audit entry of a change it made
 * through osTicket is written just after osTicket's rows, and names the key of the change.
 */
const ATTRIBUTION_LAG_MS = 3_000;
/** Rows read per source per poll. */
const BATCH = 500;
/** How far apart deskgate's audit entry and its first sight of osTicket's row may be. */
const ATTRIBUTION_WINDOW_MS = 60_000;
/**
 * The reader's lock: GET_LOCK names are server-wide, so the name holds the database's (hashed:
 * a name is at most 64 characters), and two osTicket installations on one server each get one.
 */
const lockName = sql<string>`concat('deskgate_feed_', sha1(database()))`;
const SOURCES = ['thread_event', 'thread_entry', 'user'] as const;
type Source = (typeof SOURCES)[number];

/** osTicket's ThreadEntry::FLAG_HIDDEN: the original of an edited entry. */
const FLAG_HIDDEN = 0x4;

const unixTime = (column: string) => sql<number>`unix_timestamp(${sql.ref(column)})`;
const utc = (seconds: number) => formatTimestamp(new Date(Number(seconds) * 1000));

interface Ready<Row> {
  rows: Row[];
  position: number;
}

export class OsticketEventReader {
  readonly #firstSeen = new Map<string, number>();
  readonly #settleMs: number;

  constructor(settleMs: number) {
    this.#settleMs = settleMs;
  }

  /**
   * The rows after `position` that may be read now, in id order: each seen for the attribution
   * lag, and one after a gap in the ids (a row maybe not committed yet, or deleted) only once
   * seen for the settle time too (decision 381's rule on osTicket's ids).
   */
  #ready<Row extends { id: number }>(source: Source, position: number, rows: Row[]): Ready<Row> {
    const now = Date.now();
    const ready: Row[] = [];
    let at = position;
    for (const row of rows) {
      const id = Number(row.id);
      const key = `${source}:${id}`;
      const seen = this.#firstSeen.get(key) ?? now;
      this.#firstSeen.set(key, seen);
      const age = now - seen;
      if (age < ATTRIBUTION_LAG_MS || (id !== at + 1 && age < this.#settleMs)) break;
      this.#firstSeen.delete(key);
      ready.push(row);
      at = id;
    }
    return { rows: ready, position: at };
  }

  /** One poll: appends what osTicket logged since the stored positions; resolves to how many. */
  async readOnce(db: Db): Promise<number> {
    const stored = new Map(
      (await db.selectFrom('event_positions').selectAll().execute()).map((row) => [
        row.source,
        Number(row.position),
      ]),
    );
    if (SOURCES.some((source) => !stored.has(source))) {
      // The first start: the feed begins now, not with osTicket's whole past.
      await this.#start(db, stored);
      return 0;
    }
    const events: NewEvent[] = [];
    const positions = new Map<Source, number>();
    for (const source of SOURCES) {
      const read = await this.#read(db, source, stored.get(source) ?? 0);
      events.push(...read.events);
      if (read.position !== stored.get(source)) positions.set(source, read.position);
    }
    if (positions.size === 0) return 0;
    await db.transaction().execute(async (trx) => {
      await insertEvents(tablesOf<EventTables>(trx as unknown as Kysely<object>), 'mysql', events);
      for (const [source, position] of positions) {
        await trx
          .updateTable('event_positions')
          .set({ position })
          .where('source', '=', source)
          .execute();
      }
    });
    return events.length;
  }

  async #start(db: Db, stored: Map<string, number>): Promise<void> {
    const max = async (table: 'thread_event' | 'thread_entry' | 'user') =>
      Number(
        (
          await db
            .selectFrom(table)
            .select((eb) => eb.fn.max('id').as('id'))
            .executeTakeFirst()
        )?.id ?? 0,
      );
    for (const source of SOURCES) {
      if (stored.has(source)) continue;
      await db
        .insertInto('event_positions')
        .values({ source, position: await max(source) })
        .onDuplicateKeyUpdate({ source })
        .execute();
    }
  }

  async #read(
    db: Db,
    source: Source,
    position: number,
  ): Promise<{ events: NewEvent[]; position: number }> {
    if (source === 'thread_event') return this.#threadEvents(db, position);
    if (source === 'thread_entry') return this.#entries(db, position);
    return this.#users(db, position);
  }

  /** The deskgate key whose audit entry names `targetId` under one of `operations`, if recent. */
  async #keyOf(
    db: Db,
    targetId: number,
    operations: (operation: string) => boolean,
    seenMs: number,
  ): Promise<number | undefined> {
    const rows = await db
      .selectFrom('audit_log')
      .select(['api_key_id', 'operation', 'at'])
      .where('target_id', '=', String(targetId))
      .orderBy('id', 'desc')
      .limit(10)
      .execute();
    const match = rows.find(
      (row) =>
        operations(row.operation) &&
        Math.abs(timestampToMs(row.at) - seenMs) <= ATTRIBUTION_WINDOW_MS &&
        Number(row.api_key_id) > 0,
    );
    return match ? Number(match.api_key_id) : undefined;
  }

  async #threadEvents(db: Db, position: number) {
    // No table aliases: the prefix plugin renames every table name, aliases included.
    const rows = await db
      .selectFrom('thread_event')
      .leftJoin('event', 'event.id', 'thread_event.event_id')
      .leftJoin('thread', 'thread.id', 'thread_event.thread_id')
      .leftJoin('ticket', (join) =>
        join.onRef('ticket.ticket_id', '=', 'thread.object_id').on('thread.object_type', '=', 'T'),
      )
      .leftJoin('task', (join) =>
        join.onRef('task.id', '=', 'thread.object_id').on('thread.object_type', '=', 'A'),
      )
      .leftJoin('staff', (join) =>
        join.onRef('staff.staff_id', '=', 'thread_event.uid').on('thread_event.uid_type', '=', 'S'),
      )
      .select([
        'thread_event.id',
        'thread_event.thread_id',
        'thread_event.thread_type',
        'event.name as state',
        'thread_event.dept_id',
        'thread_event.topic_id',
        'thread_event.data',
        'thread_event.username',
        'thread_event.uid',
        'thread_event.uid_type',
        'thread.object_id',
        'ticket.number as ticket_number',
        'task.number as task_number',
        'task.object_id as task_object_id',
        'task.object_type as task_object_type',
        'staff.firstname',
        'staff.lastname',
      ])
      .select(unixTime('thread_event.timestamp').as('at'))
      .where('thread_event.id', '>', position)
      .orderBy('thread_event.id')
      .limit(BATCH)
      .execute();
    const ready = this.#ready('thread_event', position, rows);
    const events: NewEvent[] = [];
    const seenMs = Date.now();
    for (const row of ready.rows) {
      const state = row.state ?? '';
      const id = `evt_ost_e${row.id}`;
      let actor: EventActor =
        row.uid_type === 'S' && row.uid
          ? {
              type: 'staff',
              id: Number(row.uid),
              name: [row.firstname, row.lastname].filter(Boolean).join(' ') || row.username,
            }
          : row.uid_type === 'U' && row.uid
            ? { type: 'user', id: Number(row.uid), name: row.username }
            : { type: 'system', id: null, name: row.username || 'SYSTEM' };
      if (row.thread_type === 'A') {
        if (state !== 'created' || row.object_id === null) continue;
        const ticket =
          row.task_object_type === 'T' && row.task_object_id !== null
            ? await this.#ticket(db, Number(row.task_object_id))
            : undefined;
        events.push({
          id,
          type: 'task.created',
          occurredAt: utc(row.at),
          ticket,
          actor,
          data: {
            task: { id: Number(row.object_id), number: row.task_number ?? '' },
            dept_id: Number(row.dept_id),
          },
        });
        continue;
      }
      if (Number(row.thread_id) === 0) continue; // its ticket was deleted before it was read
      let ticket =
        row.object_id === null
          ? undefined
          : { id: Number(row.object_id), number: row.ticket_number ?? '' };
      // osTicket deletes the ticket and its thread before it logs `deleted` on the thread's old
      // id: the ticket is the one the feed last named on that thread.
      ticket ??= await this.#ticketOfThread(db, Number(row.thread_id));
      if (!ticket) continue;
      const key = await this.#keyOf(
        db,
        ticket.id,
        (operation) => operation.startsWith('ticket/') && operation !== 'ticket/reply',
        seenMs,
      );
      if (key !== undefined) actor = { ...actor, api_key_id: key };
      const event = feedEventOfThreadEvent(
        {
          ticketId: ticket.id,
          ticketNumber: ticket.number,
          state,
          deptId: Number(row.dept_id),
          topicId: Number(row.topic_id),
          data: row.data,
          at: utc(row.at),
        },
        actor,
        id,
      );
      if (event) events.push({ ...event, threadId: Number(row.thread_id) });
    }
    return { events, position: ready.position };
  }

  async #ticket(db: Db, ticketId: number) {
    const row = await db
      .selectFrom('ticket')
      .select('number')
      .where('ticket_id', '=', ticketId)
      .executeTakeFirst();
    return { id: ticketId, number: row?.number ?? '' };
  }

  async #ticketOfThread(db: Db, threadId: number) {
    const row = await db
      .selectFrom('events')
      .select(['ticket_id', 'ticket_number'])
      .where('thread_id', '=', threadId)
      .where('ticket_id', 'is not', null)
      .orderBy('id', 'desc')
      .limit(1)
      .executeTakeFirst();
    return row ? { id: Number(row.ticket_id), number: row.ticket_number ?? '' } : undefined;
  }

  async #entries(db: Db, position: number) {
    const rows = await db
      .selectFrom('thread_entry')
      .leftJoin('thread', 'thread.id', 'thread_entry.thread_id')
      .leftJoin('ticket', (join) =>
        join.onRef('ticket.ticket_id', '=', 'thread.object_id').on('thread.object_type', '=', 'T'),
      )
      .select([
        'thread_entry.id',
        'thread_entry.thread_id',
        'thread_entry.type',
        'thread_entry.staff_id',
        'thread_entry.user_id',
        'thread_entry.poster',
        'thread_entry.flags',
        'thread.object_type',
        'thread.object_id',
        'ticket.number as ticket_number',
      ])
      .select(unixTime('thread_entry.created').as('at'))
      .where('thread_entry.id', '>', position)
      .orderBy('thread_entry.id')
      .limit(BATCH)
      .execute();
    const ready = this.#ready('thread_entry', position, rows);
    const events: NewEvent[] = [];
    const seenMs = Date.now();
    for (const row of ready.rows) {
      if (row.object_type !== 'T' || row.object_id === null) continue; // a task's thread
      if ((Number(row.flags) & FLAG_HIDDEN) !== 0) continue;
      const ticketId = Number(row.object_id);
      const staffId = Number(row.staff_id);
      const userId = Number(row.user_id);
      // The first message of a ticket deskgate opened is ticket/add's (its target: the ticket);
      // a reply or note, the operation that answered its entry id.
      const key =
        row.type === 'M'
          ? await this.#keyOf(db, ticketId, (operation) => operation === 'ticket/add', seenMs)
          : await this.#keyOf(
              db,
              Number(row.id),
              (operation) => operation.startsWith('ticket/') && operation !== 'ticket/add',
              seenMs,
            );
      const person =
        staffId > 0
          ? { type: 'staff' as const, id: staffId, name: row.poster }
          : userId > 0
            ? { type: 'user' as const, id: userId, name: row.poster }
            : undefined;
      const actor: EventActor = {
        ...(person ?? { type: 'system' as const, id: null, name: row.poster || 'SYSTEM' }),
        ...(key === undefined ? {} : { api_key_id: key }),
      };
      const event = feedEventOfEntry(
        {
          ticketId,
          ticketNumber: row.ticket_number ?? '',
          entryId: Number(row.id),
          type: row.type,
          staffId,
          userId,
          at: utc(row.at),
        },
        actor,
        `evt_ost_m${row.id}`,
      );
      if (event) events.push({ ...event, threadId: Number(row.thread_id) });
    }
    return { events, position: ready.position };
  }

  async #users(db: Db, position: number) {
    const rows = await db
      .selectFrom('user')
      .select(['id'])
      .select(unixTime('created').as('at'))
      .where('id', '>', position)
      .orderBy('id')
      .limit(BATCH)
      .execute();
    const ready = this.#ready('user', position, rows);
    const seenMs = Date.now();
    const events: NewEvent[] = [];
    for (const row of ready.rows) {
      const key = await this.#keyOf(
        db,
        Number(row.id),
        (operation) => operation === 'user/add',
        seenMs,
      );
      events.push({
        id: `evt_ost_u${row.id}`,
        type: 'user.created',
        occurredAt: utc(row.at),
        user: { id: Number(row.id) },
        actor:
          key === undefined
            ? { type: 'system', id: null, name: 'osTicket' }
            : { type: 'api', id: key, name: null, api_key_id: key },
      });
    }
    return { events, position: ready.position };
  }
}

/**
 * Runs the reader while this instance holds the installation's lock, polling every
 * READER_INTERVAL_MS, until `signal` aborts; the other instances try for the lock at that pace.
 */
export async function followOsticket(
  db: Kysely<object>,
  options: {
    settleMs: number;
    signal: AbortSignal;
    sweep: () => Promise<unknown>;
    onError: (error: unknown) => void;
  },
): Promise<void> {
  const reader = new OsticketEventReader(options.settleMs);
  const pause = () =>
    sleep(READER_INTERVAL_MS, undefined, { signal: options.signal }).catch(() => {});
  let lastSweep = 0;
  while (!options.signal.aborted) {
    try {
      await db.connection().execute(async (connection) => {
        const { rows } = await sql<{
          granted: number | null;
        }>`select get_lock(${lockName}, 0) as granted`.execute(connection);
        if (Number(rows[0]?.granted) !== 1) return;
        try {
          while (!options.signal.aborted) {
            await reader.readOnce(connection as unknown as Db);
            if (Date.now() - lastSweep > 10 * 60_000) {
              lastSweep = Date.now();
              await options.sweep();
            }
            await pause();
          }
        } finally {
          await sql`select release_lock(${lockName})`.execute(connection);
        }
      });
    } catch (error) {
      if (!options.signal.aborted) options.onError(error);
    }
    await pause();
  }
}
