import type { Generated, Kysely, Selectable, SelectQueryBuilder, Transaction } from 'kysely';
import type { OwnAgentTable } from '../agents/agent-tables.ts';
import { hasFlag } from '../common/flags.ts';
import { insertReturningId } from '../common/insert-returning-id.ts';
import { createdAt, type OwnTimestamps } from '../common/own-timestamps.ts';
import { type Param, prepareRead, type Reader } from '../common/prepared-query.ts';
import type { OwnDepartmentTable } from '../departments/own-departments.ts';
import type { Dialect } from '../dialects/dialect.ts';
import { type OwnHandle, readerOf, tablesOf } from '../entity.ts';
import type { OwnSlaPlanTable } from '../sla-plans/own-sla-plans.ts';
import { SLA_ACTIVE } from '../sla-plans/sla-plan.ts';
import { CloseFieldsMismatchError, RejectedValueError } from '../store.ts';
import type { TaskTable } from '../tasks/own-tasks.ts';
import type { OwnTicketPriorityTable } from '../ticket-priorities/ticket-priority-tables.ts';
import type { OwnTicketStatusTable } from '../ticket-statuses/ticket-status-tables.ts';
import { takeNextNumber } from './count-next.ts';
import { changeTicket } from './own-ticket-changes.ts';
import { insertTicketEvent } from './own-ticket-events.ts';
import { feedEntry } from './own-ticket-feed.ts';
import { addHours, insertEntry, lockTicket, nextUpdated, requireAgent } from './own-ticket-rows.ts';
import type {
  NewReply,
  NewTicket,
  Ticket,
  TicketClosing,
  TicketEntry,
  TicketListQuery,
  TicketLookup,
} from './ticket.ts';
import { type TicketListColumns, ticketListPage } from './ticket-list-page.ts';
import { ticketReferences, ticketState } from './ticket-references.ts';
import type { AnonymisedTickets, CreatedTicket, TicketData } from './tickets.ts';
import { type EntryColumns, entriesByTicket, toTicketEntry } from './to-ticket-entry.ts';

export interface CounterTable {
  name: string;
  next: number;
}

export interface TicketTable extends OwnTimestamps {
  id: Generated<number>;
  number: string;
  user_id: number;
  status_id: number;
  priority_id: number;
  dept_id: number;
  sla_id: number;
  topic_id: number;
  staff_id: number;
  /** The team it is assigned to, 0: none (migration 013). */
  team_id: Generated<number>;
  subject: string;
  source: string;
  ip_address: string;
  is_overdue: number;
  is_answered: number;
  due_at: string | null;
  sla_due_at: string | null;
  reopened_at: string | null;
  closed_at: string | null;
  last_message_at: string | null;
  last_response_at: string | null;
  last_update_at: string;
}

/** deskgate's `ticket_entries`: an entry's columns as both layouts name them, with its ticket. */
export interface TicketEntryTable extends Omit<EntryColumns, 'id' | 'created'> {
  id: Generated<number>;
  ticket_id: number;
  created_at: string;
}

export interface TicketEventTable {
  id: Generated<number>;
  ticket_id: number;
  kind: string;
  staff_id: number;
  user_id: number;
  dept_id: number;
  topic_id: number;
  team_id: Generated<number>;
  data: string | null;
  /** The changed columns, before and after, as JSON (migration 013; null before it). */
  changes: Generated<string | null>;
  at: string;
}

export interface OwnTicketTables {
  ticket_statuses: OwnTicketStatusTable;
  ticket_priorities: OwnTicketPriorityTable;
  sla_plans: OwnSlaPlanTable;
  departments: OwnDepartmentTable;
  agents: OwnAgentTable;
  counters: CounterTable;
  tickets: TicketTable;
  ticket_entries: TicketEntryTable;
  ticket_events: TicketEventTable;
  tasks: TaskTable;
  /** What a ticket names of the users and topics entities' tables. */
  users: { id: number; name: string };
  topics: { id: number };
  teams: { id: number; name: string; is_enabled: number };
}

type Db = Kysely<OwnTicketTables>;
export type Trx = Transaction<OwnTicketTables>;

/** osTicket's default priority on a fresh install (config `default_priority_id`): Normal. */
const DEFAULT_PRIORITY_ID = 2;

function selectTickets(db: Db) {
  return db
    .selectFrom('tickets')
    .leftJoin('ticket_priorities', 'ticket_priorities.id', 'tickets.priority_id')
    .selectAll('tickets')
    .select('ticket_priorities.name as priority_name');
}

type TicketRow = Awaited<ReturnType<ReturnType<typeof selectTickets>['execute']>>[number];

function toTicket(row: TicketRow, entries: TicketEntry[]): Ticket {
  return {
    id: Number(row.id),
    pid: null,
    number: row.number,
    userId: Number(row.user_id),
    userEmailId: 0,
    ...ticketReferences(row),
    emailId: 0,
    lockId: 0,
    flags: 0,
    sort: 0,
    ipAddress: row.ip_address,
    source: row.source,
    sourceExtra: null,
    ...ticketState(row),
    subject: row.subject,
    priorityId: Number(row.priority_id),
    priority: row.priority_name ?? '',
    entries,
  };
}

/** An entry row of deskgate's table under the columns both layouts name alike. */
function asEntryColumns(row: Selectable<TicketEntryTable>) {
  return { ...row, created: row.created_at };
}

/** The entries of these tickets, oldest first, notes only when asked for. */
async function entriesOf(
  db: Db,
  ticketIds: number[],
  notes: boolean,
): Promise<Map<number, TicketEntry[]>> {
  if (ticketIds.length === 0) return new Map();
  let query = db
    .selectFrom('ticket_entries')
    .selectAll()
    .where('ticket_id', 'in', ticketIds)
    .orderBy('ticket_id')
    .orderBy('id');
  if (!notes) query = query.where('type', '<>', 'N');
  const rows = (await query.execute()).map(asEntryColumns);
  return entriesByTicket(ticketIds, rows, (row) => row.ticket_id);
}

async function withEntries(db: Db, rows: TicketRow[], notes: boolean): Promise<Ticket[]> {
  const entries = await entriesOf(
    db,
    rows.map((row) => Number(row.id)),
    notes,
  );
  return rows.map((row) => toTicket(row, entries.get(Number(row.id)) ?? []));
}

const ticketById = prepareRead((db: Db, param: Param<{ id: number }>) =>
  selectTickets(db).where('tickets.id', '=', param('id')),
);
const ticketByNumber = prepareRead((db: Db, param: Param<{ number: string }>) =>
  selectTickets(db).where('tickets.number', '=', param('number')),
);
/** One ticket's entries, oldest first; `hidden` '' keeps every type, 'N' leaves out notes. */
const entriesOfTicket = prepareRead((db: Db, param: Param<{ ticketId: number; hidden: string }>) =>
  db
    .selectFrom('ticket_entries')
    .selectAll()
    .where('ticket_id', '=', param('ticketId'))
    .where('type', '<>', param('hidden'))
    .orderBy('id'),
);

/** One ticket through prepared reads: built once, run on SQLite's read connection (decision 092). */
export async function findTicket(
  reader: Reader<OwnTicketTables>,
  lookup: TicketLookup,
  options: { notes: boolean },
): Promise<Ticket | undefined> {
  const [row] = await ('id' in lookup
    ? ticketById(reader, { id: lookup.id })
    : ticketByNumber(reader, { number: lookup.number }));
  if (!row) return undefined;
  const entries = await entriesOfTicket(reader, {
    ticketId: Number(row.id),
    hidden: options.notes ? '' : 'N',
  });
  return toTicket(
    row,
    entries.map((entry) => toTicketEntry(asEntryColumns(entry))),
  );
}

/** Where this layout keeps what the ticket list filters and orders by. */
const LIST_COLUMNS: TicketListColumns = {
  id: 'tickets.id',
  created: 'tickets.created_at',
  lastUpdate: 'tickets.last_update_at',
  statusId: 'tickets.status_id',
  timesMayBeNull: false,
};

export async function listTickets(db: Db, query: TicketListQuery): Promise<Ticket[]> {
  const rows = await ticketListPage(selectTickets(db), LIST_COLUMNS, query).execute();
  return withEntries(db, rows, query.notes);
}

async function requireRow(
  found: Promise<unknown>,
  field: string,
  message = 'does not name an existing record',
): Promise<void> {
  if ((await found) === undefined) throw new RejectedValueError(field, message);
}

/** Department, SLA plan, status and priority of a new ticket: the ones asked for, checked, else the defaults. */
async function resolveTicketSettings(trx: Trx, ticket: NewTicket) {
  const user = await trx
    .selectFrom('users')
    .select('name')
    .where('id', '=', ticket.userId)
    .executeTakeFirst();
  if (!user) throw new RejectedValueError('user_id', 'is not an existing user');
  if (ticket.topicId !== 0) {
    await requireRow(
      trx.selectFrom('topics').select('id').where('id', '=', ticket.topicId).executeTakeFirst(),
      'topic_id',
      'is not an existing help topic',
    );
  }
  const department = await (ticket.deptId === 0
    ? trx.selectFrom('departments').select(['id', 'sla_id']).orderBy('id').limit(1)
    : trx.selectFrom('departments').select(['id', 'sla_id']).where('id', '=', ticket.deptId)
  ).executeTakeFirst();
  if (!department) throw new RejectedValueError('dept_id', 'is not an existing department');
  // osTicket's precedence: the SLA asked for, else the department's, else the default plan.
  const slaId = ticket.slaId !== 0 ? ticket.slaId : Number(department.sla_id);
  const sla = await (slaId === 0
    ? trx.selectFrom('sla_plans').select(['id', 'grace_period', 'flags']).orderBy('id').limit(1)
    : trx.selectFrom('sla_plans').select(['id', 'grace_period', 'flags']).where('id', '=', slaId)
  ).executeTakeFirst();
  if (!sla) throw new RejectedValueError('sla_id', 'is not an existing SLA plan');
  const status = await (ticket.statusId === 0
    ? trx
        .selectFrom('ticket_statuses')
        .selectAll()
        .where('state', '=', 'open')
        .orderBy('sort')
        .limit(1)
    : trx.selectFrom('ticket_statuses').selectAll().where('id', '=', ticket.statusId)
  ).executeTakeFirst();
  if (!status) throw new RejectedValueError('status_id', 'is not an existing ticket status');
  if (status.state !== 'open' && status.state !== 'closed') {
    throw new RejectedValueError('status_id', 'must be an open or a closed status');
  }
  const priorityId = ticket.priorityId === 0 ? DEFAULT_PRIORITY_ID : ticket.priorityId;
  await requireRow(
    trx
      .selectFrom('ticket_priorities')
      .select('id')
      .where('id', '=', priorityId)
      .executeTakeFirst(),
    'priority_id',
    'is not an existing priority',
  );
  return { user, department, sla, status, priorityId };
}

/** The ticket, its first message and its events, in the write's transaction. */
export async function insertTicket(
  trx: Trx,
  dialect: Dialect,
  ticket: NewTicket,
  at: string,
): Promise<CreatedTicket> {
  {
    const { user, department, sla, status, priorityId } = await resolveTicketSettings(trx, ticket);
    const number = await takeNextNumber(trx, 'ticket');
    const closed = status.state === 'closed';
    const id = await insertReturningId(
      trx.insertInto('tickets').values({
        number,
        user_id: ticket.userId,
        status_id: Number(status.id),
        priority_id: priorityId,
        dept_id: Number(department.id),
        sla_id: Number(sla.id),
        topic_id: ticket.topicId,
        staff_id: 0,
        team_id: 0,
        subject: ticket.subject,
        source: 'API',
        ip_address: ticket.ipAddress,
        is_overdue: 0,
        is_answered: 0,
        due_at: null,
        sla_due_at:
          !closed && hasFlag(sla.flags, SLA_ACTIVE) ? addHours(at, Number(sla.grace_period)) : null,
        reopened_at: null,
        closed_at: closed ? at : null,
        last_message_at: at,
        last_response_at: null,
        last_update_at: at,
        ...createdAt(at),
      }),
      dialect,
    );
    const message = {
      ticket_id: id,
      pid: 0,
      type: 'M',
      user_id: ticket.userId,
      staff_id: 0,
      poster: user.name,
      title: ticket.subject,
      body: ticket.body,
      format: 'text',
      source: 'API',
      ip_address: ticket.ipAddress,
      created_at: at,
    };
    const messageId = await insertEntry(trx, dialect, message);
    const event = {
      ticket_id: id,
      staff_id: 0,
      user_id: ticket.userId,
      dept_id: Number(department.id),
      topic_id: ticket.topicId,
      team_id: 0,
      at,
    };
    await insertTicketEvent(trx, dialect, { ...event, kind: 'created', data: null, changes: null });
    await feedEntry(trx, dialect, { ...message, id: messageId }, number);
    if (closed) {
      await insertTicketEvent(trx, dialect, {
        ...event,
        kind: 'closed',
        data: { status: [Number(status.id), status.name] },
        changes: null,
      });
    }
    return { id, number };
  }
}

export async function lastMessageId(trx: Trx, ticketId: number): Promise<number> {
  const row = await trx
    .selectFrom('ticket_entries')
    .select('id')
    .where('ticket_id', '=', ticketId)
    .where('type', '=', 'M')
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
  return row ? Number(row.id) : 0;
}

/** An agent's response, as osTicket's postReply writes it: the ticket becomes answered and, if unassigned, the agent's. */
export async function insertReply(
  trx: Trx,
  dialect: Dialect,
  reply: NewReply,
  at: string,
): Promise<number> {
  {
    const ticket = await lockTicket(trx, dialect, reply.ticketId);
    const agent = await requireAgent(trx, reply.staffId);
    const when = nextUpdated(ticket.updated_at, at);
    const response = {
      ticket_id: reply.ticketId,
      pid: await lastMessageId(trx, reply.ticketId),
      type: 'R',
      user_id: 0,
      staff_id: reply.staffId,
      poster: agent.name,
      title: null,
      body: reply.body,
      format: 'text',
      source: 'API',
      ip_address: reply.ipAddress,
      created_at: when,
    };
    const entryId = await insertEntry(trx, dialect, response);
    await feedEntry(trx, dialect, { ...response, id: entryId }, ticket.number);
    await trx
      .updateTable('tickets')
      .set({
        is_answered: 1,
        last_response_at: when,
        updated_at: when,
        staff_id: Number(ticket.staff_id) === 0 ? reply.staffId : Number(ticket.staff_id),
      })
      .where('id', '=', reply.ticketId)
      .execute();
    return entryId;
  }
}

/**
 * Closes as osTicket's setStatus does: the closed-state status, closed = lastupdate = updated =
 * now, the closing agent, overdue cleared, a `closed` event; the body becomes an internal note.
 */
export async function closeTicket(
  trx: Trx,
  dialect: Dialect,
  closing: TicketClosing,
  at: string,
): Promise<void> {
  {
    const ticket = await lockTicket(trx, dialect, closing.ticketId);
    const agent = await requireAgent(trx, closing.staffId);
    const when = nextUpdated(ticket.updated_at, at);
    const status = await trx
      .selectFrom('ticket_statuses')
      .selectAll()
      .where('id', '=', closing.statusId)
      .executeTakeFirst();
    if (!status) throw new RejectedValueError('status_id', 'is not an existing ticket status');
    if (status.state !== 'closed')
      throw new RejectedValueError('status_id', 'is not a closed status');
    // One error whichever differs: no oracle for a ticket's department or an agent's login.
    if (
      (closing.deptId !== 0 && closing.deptId !== Number(ticket.dept_id)) ||
      (closing.topicId !== 0 && closing.topicId !== Number(ticket.topic_id)) ||
      (closing.teamId !== 0 && closing.teamId !== Number(ticket.team_id)) ||
      (closing.username !== undefined && closing.username !== agent.username)
    )
      throw new CloseFieldsMismatchError('close fields do not match');
    if (closing.body !== '') {
      const note = {
        ticket_id: closing.ticketId,
        pid: 0,
        type: 'N',
        user_id: 0,
        staff_id: closing.staffId,
        poster: agent.name,
        title: 'Status Changed',
        body: closing.body,
        format: 'text',
        source: 'API',
        ip_address: closing.ipAddress,
        created_at: when,
      };
      const noteId = await insertEntry(trx, dialect, note);
      await feedEntry(trx, dialect, { ...note, id: noteId }, ticket.number);
    }
    await trx
      .updateTable('tickets')
      .set({
        status_id: closing.statusId,
        closed_at: when,
        last_update_at: when,
        updated_at: when,
        staff_id: closing.staffId,
        is_overdue: 0,
      })
      .where('id', '=', closing.ticketId)
      .execute();
    await insertTicketEvent(trx, dialect, {
      ticket_id: closing.ticketId,
      kind: 'closed',
      staff_id: closing.staffId,
      user_id: 0,
      dept_id: Number(ticket.dept_id),
      topic_id: Number(ticket.topic_id),
      team_id: Number(ticket.team_id),
      data: { status: [Number(status.id), status.name] },
      changes: {
        status_id: [Number(ticket.status_id), Number(status.id)],
        staff_id: [Number(ticket.staff_id), closing.staffId],
        closed_at: [ticket.closed_at, when],
      },
      at: when,
    });
  }
}

/** Tickets on deskgate's own schema. */
export async function countTicketsNaming(
  db: Kysely<OwnTicketTables>,
  reference: { userId: number } | { topicId: number },
): Promise<number> {
  const row = await db
    .selectFrom('tickets')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where((eb) =>
      'topicId' in reference
        ? eb('topic_id', '=', reference.topicId)
        : eb.or([
            eb('user_id', '=', reference.userId),
            eb(
              'id',
              'in',
              eb
                .selectFrom('ticket_entries')
                .select('ticket_id')
                .where('user_id', '=', reference.userId),
            ),
          ]),
    )
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** The ids a select of ids finds, in id order. */
async function idsInOrder<Table extends 'tickets' | 'ticket_entries'>(
  select: SelectQueryBuilder<OwnTicketTables, Table, { id: number }>,
): Promise<number[]> {
  return (await select.orderBy('id').execute()).map((row) => Number(row.id));
}

/** TicketData.anonymiseTicketsOf on deskgate's own schema, in the erasure's transaction. */
export async function anonymiseTicketsOf(
  trx: Trx,
  userId: number,
  marker: string,
): Promise<AnonymisedTickets> {
  // Sub-selects, not id lists: no bound on how many tickets a user has. Their tickets' rows are
  // changed last, as the sub-selects find them by their user.
  const theirTickets = trx.selectFrom('tickets').select('id').where('user_id', '=', userId);
  const theirEntries = trx
    .selectFrom('ticket_entries')
    .select('id')
    .where('ticket_id', 'in', theirTickets);
  const ticketIds = await idsInOrder(theirTickets);
  const entryIds = await idsInOrder(theirEntries);
  // The user's own entries, wherever they are: their words, name and address.
  const userEntries = trx.updateTable('ticket_entries').where('user_id', '=', userId);
  await userEntries.set({ title: marker }).where('title', 'is not', null).execute();
  await userEntries.set({ body: marker, poster: marker, ip_address: '', user_id: 0 }).execute();
  // On their own tickets every entry is about them (replies quote them, greet them by name):
  // the agents' entries keep who wrote them and when, not what.
  await trx
    .updateTable('ticket_entries')
    .set({ body: marker })
    .where('ticket_id', 'in', theirTickets)
    .execute();
  await trx
    .updateTable('tasks')
    .set({ title: marker, description: marker })
    .where('ticket_id', 'in', theirTickets)
    .execute();
  await trx
    .updateTable('ticket_events')
    .set({ user_id: 0 })
    .where('user_id', '=', userId)
    .execute();
  await trx
    .updateTable('tickets')
    .set({ user_id: 0, subject: marker, ip_address: '' })
    .where('user_id', '=', userId)
    .execute();
  return { ticketIds, entryIds };
}

export function makeOwnTickets(handle: OwnHandle): TicketData {
  const db = tablesOf<OwnTicketTables>(handle.db);
  const reader = readerOf<OwnTicketTables>(handle.reader);
  const { dialect } = handle;
  return {
    findTicket: (lookup, options) => findTicket(reader, lookup, options),
    listTickets: (query) => listTickets(db, query),
    insertTicket: (trx, ticket, at) =>
      insertTicket(tablesOf<OwnTicketTables>(trx) as Trx, dialect, ticket, at),
    insertReply: (trx, reply, at) =>
      insertReply(tablesOf<OwnTicketTables>(trx) as Trx, dialect, reply, at),
    closeTicket: (trx, closing, at) =>
      closeTicket(tablesOf<OwnTicketTables>(trx) as Trx, dialect, closing, at),
    changeTicket: (trx, change, at) =>
      changeTicket(tablesOf<OwnTicketTables>(trx) as Trx, dialect, change, at),
    countTicketsNaming: (reference, trx) =>
      countTicketsNaming(trx ? tablesOf<OwnTicketTables>(trx) : db, reference),
    anonymiseTicketsOf: (trx, userId, marker) =>
      anonymiseTicketsOf(tablesOf<OwnTicketTables>(trx) as Trx, userId, marker),
  };
}
