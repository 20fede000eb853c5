import type { Kysely } from 'kysely';
import { type OsticketHandle, tablesOf } from '../entity.ts';
import type { OsticketTableRequirement } from '../osticket/osticket-requirements.ts';
import { UnsupportedInModeError } from '../store.ts';
import { byCreatedThenId, notHidden } from './hidden-entries.ts';
import type { OsticketTicketTables } from './osticket-ticket-tables.ts';
import type { Ticket, TicketEntry, TicketListQuery, TicketLookup } from './ticket.ts';
import { type TicketListColumns, ticketListPage } from './ticket-list-page.ts';
import { ticketReferences, ticketState } from './ticket-references.ts';
import type { TicketData } from './tickets.ts';
import { entriesByTicket } from './to-ticket-entry.ts';

/** The ticket's own columns, named: never `*` over joined tables (the original's defect). */
const TICKET_COLUMNS = [
  'ticket.ticket_id',
  'ticket.ticket_pid',
  'ticket.number',
  'ticket.user_id',
  'ticket.user_email_id',
  'ticket.status_id',
  'ticket.dept_id',
  'ticket.sla_id',
  'ticket.topic_id',
  'ticket.staff_id',
  'ticket.team_id',
  'ticket.email_id',
  'ticket.lock_id',
  'ticket.flags',
  'ticket.sort',
  'ticket.ip_address',
  'ticket.source',
  'ticket.source_extra',
] as const;

/** The ticket's state and times, under the names ticketState reads (deskgate's own columns'). */
const STATE_COLUMNS = [
  'ticket.isoverdue as is_overdue',
  'ticket.isanswered as is_answered',
  'ticket.duedate as due_at',
  'ticket.est_duedate as sla_due_at',
  'ticket.reopened as reopened_at',
  'ticket.closed as closed_at',
  'ticket.lastupdate as last_update_at',
  'ticket.created as created_at',
  'ticket.updated as updated_at',
] as const;

function selectTickets(db: Db) {
  return db.selectFrom('ticket').select([...TICKET_COLUMNS, ...STATE_COLUMNS]);
}

type TicketRow = Awaited<ReturnType<ReturnType<typeof selectTickets>['execute']>>[number];

type Db = Kysely<OsticketTicketTables>;

interface Answers {
  subject?: string;
  priorityId?: number;
  priority?: string;
}

/**
 * Subject and priority as osTicket's staff view shows them: the ticket form's answers, else the
 * `ticket__cdata` row (whose priority is the id), the priority's name from `ticket_priority`.
 */
async function answersOf(db: Db, ids: number[]): Promise<Map<number, Answers>> {
  const answers = new Map<number, Answers>(ids.map((id) => [id, {}]));
  const values = await db
    .selectFrom('form_entry')
    .innerJoin('form', 'form.id', 'form_entry.form_id')
    .innerJoin('form_entry_values', 'form_entry_values.entry_id', 'form_entry.id')
    .innerJoin('form_field', 'form_field.id', 'form_entry_values.field_id')
    .select([
      'form_entry.id',
      'form_entry.object_id',
      'form_field.name',
      'form_entry_values.value',
      'form_entry_values.value_id',
    ])
    .where('form_entry.object_type', '=', 'T')
    .where('form.type', '=', 'T')
    .where('form_entry.object_id', 'in', ids)
    .where('form_field.name', 'in', ['subject', 'priority'])
    .execute();
  // The first form entry's answer counts. Ordered here: ORDER BY over this join sorts the values
  // (TEXT) in a temporary table, on disk in MariaDB (issue 34).
  values.sort((a, b) => Number(a.id) - Number(b.id));
  for (const row of values) {
    const answer = answers.get(Number(row.object_id));
    if (!answer || row.value === null) continue;
    if (row.name === 'subject') answer.subject ??= row.value;
    else if (answer.priorityId === undefined && row.value_id !== null) {
      answer.priorityId = Number(row.value_id);
      answer.priority = row.value;
    }
  }
  const missing = ids.filter((id) => {
    const answer = answers.get(id);
    return answer?.subject === undefined || answer.priorityId === undefined;
  });
  if (missing.length > 0) {
    const cdata = await db
      .selectFrom('ticket__cdata')
      .select(['ticket_id', 'subject', 'priority'])
      .where('ticket_id', 'in', missing)
      .execute();
    for (const row of cdata) {
      const answer = answers.get(Number(row.ticket_id));
      if (!answer) continue;
      if (answer.subject === undefined && row.subject !== null) answer.subject = row.subject;
      if (answer.priorityId === undefined && row.priority !== null && /^\d+$/.test(row.priority))
        answer.priorityId = Number(row.priority);
    }
  }
  const unnamed = [...answers.values()].filter(
    (answer) => answer.priorityId !== undefined && answer.priority === undefined,
  );
  if (unnamed.length > 0) {
    const names = new Map(
      (
        await db.selectFrom('ticket_priority').select(['priority_id', 'priority_desc']).execute()
      ).map((row) => [Number(row.priority_id), row.priority_desc]),
    );
    for (const answer of unnamed) answer.priority = names.get(answer.priorityId ?? 0) ?? '';
  }
  return answers;
}

/** The thread entry columns the reads select. */
const ENTRY_COLUMNS = [
  'id',
  'pid',
  'thread_id',
  'staff_id',
  'user_id',
  'type',
  'poster',
  'source',
  'title',
  'body',
  'format',
  'ip_address',
  'created',
] as const;

/**
 * The ticket threads' messages and responses (notes when asked for), never a task's thread, in
 * osTicket's own order (created, id) and, as its views, without the hidden entries: the originals
 * an agent edited (decision 320).
 */
async function entriesOf(
  db: Db,
  ids: number[],
  notes: boolean,
): Promise<Map<number, TicketEntry[]>> {
  const rows = await db
    .selectFrom('thread')
    .innerJoin('thread_entry', 'thread_entry.thread_id', 'thread.id')
    .select([
      'thread.object_id',
      ...ENTRY_COLUMNS.map((column) => `thread_entry.${column}` as const),
    ])
    .where('thread.object_type', '=', 'T')
    .where('thread.object_id', 'in', ids)
    .where('thread_entry.type', 'in', notes ? ['M', 'R', 'N'] : ['M', 'R'])
    .where(notHidden)
    .execute();
  const byTicket = entriesByTicket(ids, rows, (row) => row.object_id);
  for (const entries of byTicket.values()) entries.sort(byCreatedThenId);
  return byTicket;
}

async function toTickets(db: Db, rows: TicketRow[], notes: boolean): Promise<Ticket[]> {
  if (rows.length === 0) return [];
  const ids = rows.map((row) => Number(row.ticket_id));
  const [answers, entries] = await Promise.all([answersOf(db, ids), entriesOf(db, ids, notes)]);
  return rows.map((row) => {
    const id = Number(row.ticket_id);
    const answer = answers.get(id) ?? {};
    return {
      id,
      pid: row.ticket_pid === null ? null : Number(row.ticket_pid),
      number: row.number ?? '',
      userId: Number(row.user_id),
      userEmailId: Number(row.user_email_id),
      ...ticketReferences(row),
      emailId: Number(row.email_id),
      lockId: Number(row.lock_id),
      flags: Number(row.flags),
      sort: Number(row.sort),
      ipAddress: row.ip_address,
      source: row.source,
      sourceExtra: row.source_extra,
      ...ticketState(row),
      subject: answer.subject ?? '',
      priorityId: answer.priorityId ?? 0,
      priority: answer.priority ?? '',
      entries: entries.get(id) ?? [],
    };
  });
}

export async function findTicket(
  db: Db,
  lookup: TicketLookup,
  options: { notes: boolean },
): Promise<Ticket | undefined> {
  const query = selectTickets(db);
  const rows = await ('id' in lookup
    ? query.where('ticket.ticket_id', '=', lookup.id)
    : // osTicket has no unique index on number: the first ticket with it, as its own look-up.
      query.where('ticket.number', '=', lookup.number).orderBy('ticket.ticket_id')
  )
    .limit(1)
    .execute();
  return (await toTickets(db, rows, options.notes))[0];
}

/** Where this layout keeps what the ticket list filters and orders by. */
const LIST_COLUMNS: TicketListColumns = {
  id: 'ticket.ticket_id',
  created: 'ticket.created',
  lastUpdate: 'ticket.lastupdate',
  statusId: 'ticket.status_id',
  timesMayBeNull: true,
};

export async function listTickets(db: Db, query: TicketListQuery): Promise<Ticket[]> {
  const rows = await ticketListPage(selectTickets(db), LIST_COLUMNS, query).execute();
  return toTickets(db, rows, query.notes);
}

/** The columns the reads select, probed at start and by /readyz (a grant missing stops the start). */
export const OSTICKET_TICKET_TABLES: readonly OsticketTableRequirement[] = [
  {
    table: 'ticket',
    privileges: ['SELECT'],
    columns: [...TICKET_COLUMNS, ...STATE_COLUMNS].map(
      (column) => column.slice('ticket.'.length).split(' as ')[0] as string,
    ),
  },
  { table: 'thread', privileges: ['SELECT'], columns: ['id', 'object_id', 'object_type'] },
  {
    table: 'thread_entry',
    privileges: ['SELECT'],
    // flags: the hidden entries are left out (notHidden).
    columns: [...ENTRY_COLUMNS, 'flags'],
  },
  {
    table: 'ticket_priority',
    privileges: ['SELECT'],
    columns: ['priority_id', 'priority_desc'],
  },
  {
    table: 'ticket__cdata',
    privileges: ['SELECT'],
    columns: ['ticket_id', 'subject', 'priority'],
  },
  { table: 'form', privileges: ['SELECT'], columns: ['id', 'type'] },
  { table: 'form_field', privileges: ['SELECT'], columns: ['id', 'form_id', 'name'] },
  {
    table: 'form_entry',
    privileges: ['SELECT'],
    columns: ['id', 'form_id', 'object_id', 'object_type'],
  },
  {
    table: 'form_entry_values',
    privileges: ['SELECT'],
    columns: ['entry_id', 'field_id', 'value', 'value_id'],
  },
];

function writtenByOsticket(): Promise<never> {
  return Promise.reject(
    new UnsupportedInModeError("in osTicket mode tickets are written by osTicket's own code"),
  );
}

/** Tickets of an osTicket database: parameterised read-only SQL on its real columns. */
export function makeOsticketTickets(handle: OsticketHandle): TicketData {
  const db = tablesOf<OsticketTicketTables>(handle.db);
  return {
    findTicket: (lookup, options) => findTicket(db, lookup, options),
    listTickets: (query) => listTickets(db, query),
    insertTicket: writtenByOsticket,
    insertReply: writtenByOsticket,
    closeTicket: writtenByOsticket,
    changeTicket: writtenByOsticket,
    // users delete asks before calling deskgate's plugin (which asks again); topics delete is
    // refused before it asks.
    countTicketsNaming: async (reference) => {
      if (!('userId' in reference)) return writtenByOsticket();
      const row = await db
        .selectFrom('ticket')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('user_id', '=', reference.userId)
        .executeTakeFirstOrThrow();
      return Number(row.n);
    },
    // deskgate's osTicket plugin does it, through osTicket's objects (decision 344).
    anonymiseTicketsOf: writtenByOsticket,
  };
}
