import type { Updateable } from 'kysely';
import { hasFlag } from '../common/flags.ts';
import type { Dialect } from '../dialects/dialect.ts';
import { SLA_ACTIVE } from '../sla-plans/sla-plan.ts';
import { RejectedValueError } from '../store.ts';
import { formatTimestamp } from '../time.ts';
import { insertTicketEvent } from './own-ticket-events.ts';
import { feedEntry } from './own-ticket-feed.ts';
import {
  addHours,
  insertEntry,
  lockTicket,
  nextUpdated,
  requireAgent,
  type TicketRowOf,
} from './own-ticket-rows.ts';
import type { TicketTable, Trx } from './own-tickets.ts';
import type { TicketChange, TicketChangeResult } from './ticket.ts';
import { TicketConflictError, TicketNotCloseableError } from './ticket-errors.ts';

/** An SLA plan's transient flag, as osTicket's (0x8): a transfer replaces the plan. */
const SLA_TRANSIENT = 8;

type Row = TicketRowOf;
type Agent = Awaited<ReturnType<typeof requireAgent>>;
type Change<Kind extends TicketChange['kind']> = Extract<TicketChange, { kind: Kind }>;

/** One event as the change writes it: osTicket's name and data (and its own columns' changes). */
interface PlannedEvent {
  kind: string;
  data: unknown;
  /** The columns this event changed; absent: the whole change's, on its first event. */
  changes?: Record<string, [unknown, unknown]>;
}

/** What a change writes: the ticket's columns, its events in order, and an internal note. */
interface Plan {
  set: Updateable<TicketTable>;
  events: PlannedEvent[];
  note?: { title: string | null; body: string };
}

const UNCHANGED: Plan = { set: {}, events: [] };

async function statusOf(trx: Trx, statusId: number) {
  return trx
    .selectFrom('ticket_statuses')
    .selectAll()
    .where('id', '=', statusId)
    .executeTakeFirst();
}

/** Whether a stored time is at or before `at` (osTicket's Misc::db2gmtime(…) <= gmtime()). */
const isPast = (time: string | null, at: string) => time !== null && formatTimestamp(time) <= at;

/** The SLA due time from `start`: the plan's grace hours when it is active (decision 172). */
async function slaDueFrom(trx: Trx, slaId: number, start: string): Promise<string | null> {
  if (slaId === 0) return null;
  const sla = await trx
    .selectFrom('sla_plans')
    .select(['grace_period', 'flags'])
    .where('id', '=', slaId)
    .executeTakeFirst();
  if (!sla || !hasFlag(sla.flags, SLA_ACTIVE)) return null;
  return addHours(start, Number(sla.grace_period));
}

/** The columns a value changes, before and after; only the ones that differ. */
function changedColumns(
  row: Row,
  set: Updateable<TicketTable>,
): Record<string, [unknown, unknown]> {
  const changes: Record<string, [unknown, unknown]> = {};
  for (const [column, after] of Object.entries(set)) {
    if (column === 'updated_at' || column === 'last_update_at') continue;
    const raw = row[column as keyof Row];
    const before = typeof raw === 'string' || raw === null ? raw : Number(raw);
    if (before !== after) changes[column] = [before, after];
  }
  return changes;
}

/**
 * osTicket's setStatus to an open status of a closed ticket (reopen): the closing agent or the
 * last respondent keeps it when still active, else nobody; closed cleared, reopened = lastupdate
 * = now, unanswered, overdue cleared and the SLA due time counted again from now.
 */
async function reopen(trx: Trx, row: Row, at: string, statusId: number) {
  let staffId = Number(row.staff_id);
  if (staffId === 0) {
    const last = await trx
      .selectFrom('ticket_entries')
      .select('staff_id')
      .where('ticket_id', '=', Number(row.id))
      .where('type', '=', 'R')
      .orderBy('id', 'desc')
      .limit(1)
      .executeTakeFirst();
    staffId = last ? Number(last.staff_id) : 0;
  }
  if (staffId !== 0) {
    const agent = await trx
      .selectFrom('agents')
      .select('is_active')
      .where('id', '=', staffId)
      .executeTakeFirst();
    if (!agent || Number(agent.is_active) !== 1) staffId = 0;
  }
  const set: Updateable<TicketTable> = {
    status_id: statusId,
    staff_id: staffId,
    closed_at: null,
    reopened_at: at,
    last_update_at: at,
    is_answered: 0,
    is_overdue: 0,
    due_at: isPast(row.due_at, at) ? null : row.due_at,
    sla_due_at: await slaDueFrom(trx, Number(row.sla_id), at),
  };
  return { set, event: { kind: 'reopened', data: null } as PlannedEvent };
}

/** osTicket's default open status (the one a reopened ticket gets): the first open one. */
async function defaultOpenStatusId(trx: Trx): Promise<number> {
  const status = await trx
    .selectFrom('ticket_statuses')
    .select('id')
    .where('state', '=', 'open')
    .orderBy('sort')
    .orderBy('id')
    .limit(1)
    .executeTakeFirstOrThrow();
  return Number(status.id);
}

async function isClosed(trx: Trx, row: Row): Promise<boolean> {
  return (await statusOf(trx, Number(row.status_id)))?.state === 'closed';
}

/** A reopen folded into an assignment or a transfer of a closed ticket (osTicket's reopen()). */
async function withReopen(trx: Trx, row: Row, at: string, plan: Plan): Promise<Plan> {
  if (!(await isClosed(trx, row))) return plan;
  const reopened = await reopen(trx, row, at, await defaultOpenStatusId(trx));
  const assigned = plan.set.staff_id;
  return {
    ...plan,
    // An assignee set by the change stays (osTicket's reopen keeps the ticket's agent).
    set: {
      ...reopened.set,
      ...plan.set,
      ...(assigned === undefined ? {} : { staff_id: assigned }),
    },
    events: [...plan.events, reopened.event],
  };
}

async function planStatus(trx: Trx, row: Row, change: Change<'status'>, at: string): Promise<Plan> {
  const status = await statusOf(trx, change.statusId);
  if (!status) throw new RejectedValueError('status_id', 'is not an existing ticket status');
  if (status.state !== 'open' && status.state !== 'closed')
    throw new RejectedValueError('status_id', 'must be an open or a closed status');
  const statusId = Number(status.id);
  if (statusId === Number(row.status_id)) return UNCHANGED;
  const note =
    change.comments === '' ? undefined : { title: 'Status Changed', body: change.comments };
  if (status.state === 'closed') {
    const open = await trx
      .selectFrom('tasks')
      .select('id')
      .where('ticket_id', '=', Number(row.id))
      .where('closed_at', 'is', null)
      .limit(1)
      .executeTakeFirst();
    if (open) throw new TicketNotCloseableError('the ticket has open tasks');
    return {
      set: {
        status_id: statusId,
        closed_at: at,
        last_update_at: at,
        staff_id: change.staffId,
        is_overdue: 0,
        due_at: isPast(row.due_at, at) ? null : row.due_at,
        sla_due_at: isPast(row.sla_due_at, at) ? null : row.sla_due_at,
      },
      events: [{ kind: 'closed', data: { status: [statusId, status.name] } }],
      ...(note ? { note } : {}),
    };
  }
  if (await isClosed(trx, row)) {
    const reopened = await reopen(trx, row, at, statusId);
    return { set: reopened.set, events: [reopened.event], ...(note ? { note } : {}) };
  }
  return {
    set: { status_id: statusId },
    events: [{ kind: 'edited', data: { status: statusId } }],
    ...(note ? { note } : {}),
  };
}

async function planAssign(
  trx: Trx,
  row: Row,
  actor: Agent,
  change: Change<'assign'>,
  at: string,
): Promise<Plan> {
  const comments = change.comments;
  const noteOf = (title: string) => (comments === '' ? {} : { note: { title, body: comments } });
  if ('agentId' in change) {
    const current = Number(row.staff_id);
    if (change.agentId === 0) {
      if (current === 0) return UNCHANGED;
      const released = await trx
        .selectFrom('agents')
        .select('name')
        .where('id', '=', current)
        .executeTakeFirst();
      return {
        set: { staff_id: 0 },
        events: [{ kind: 'released', data: { staff: [current, released?.name ?? ''] } }],
        ...noteOf('Assignment Released'),
      };
    }
    const agent = await trx
      .selectFrom('agents')
      .select(['id', 'name', 'is_active'])
      .where('id', '=', change.agentId)
      .executeTakeFirst();
    if (!agent) throw new RejectedValueError('agent_id', 'is not an existing agent');
    if (Number(agent.is_active) !== 1)
      throw new RejectedValueError('agent_id', 'is not an active agent');
    if (change.agentId === current) return UNCHANGED;
    const claim = change.agentId === Number(actor.id);
    return withReopen(trx, row, at, {
      set: { staff_id: change.agentId },
      events: [
        {
          kind: 'assigned',
          data: claim ? { claim: true } : { staff: [change.agentId, agent.name] },
        },
      ],
      ...noteOf(claim ? `Ticket claimed by ${actor.name}` : `Ticket Assigned to ${agent.name}`),
    });
  }
  const current = Number(row.team_id);
  if (change.teamId === 0) {
    if (current === 0) return UNCHANGED;
    return {
      set: { team_id: 0 },
      events: [{ kind: 'released', data: { team: current } }],
      ...noteOf('Assignment Released'),
    };
  }
  const team = await trx
    .selectFrom('teams')
    .select(['id', 'name', 'is_enabled'])
    .where('id', '=', change.teamId)
    .executeTakeFirst();
  if (!team) throw new RejectedValueError('team_id', 'is not an existing team');
  if (Number(team.is_enabled) !== 1)
    throw new RejectedValueError('team_id', 'is not an enabled team');
  if (change.teamId === current) return UNCHANGED;
  return withReopen(trx, row, at, {
    set: { team_id: change.teamId },
    events: [{ kind: 'assigned', data: { team: change.teamId } }],
    ...noteOf(`Ticket Assigned to ${team.name}`),
  });
}

async function planTransfer(
  trx: Trx,
  row: Row,
  change: Change<'transfer'>,
  at: string,
): Promise<Plan> {
  const department = await trx
    .selectFrom('departments')
    .select(['id', 'name', 'sla_id'])
    .where('id', '=', change.deptId)
    .executeTakeFirst();
  if (!department) throw new RejectedValueError('dept_id', 'is not an existing department');
  if (change.deptId === Number(row.dept_id)) return UNCHANGED;
  const from = await trx
    .selectFrom('departments')
    .select('name')
    .where('id', '=', Number(row.dept_id))
    .executeTakeFirst();
  const set: Updateable<TicketTable> = { dept_id: change.deptId };
  // osTicket: the new department's SLA replaces none or a transient one (its due time stays).
  const slaId = Number(row.sla_id);
  const deptSla = Number(department.sla_id);
  if (deptSla !== 0 && deptSla !== slaId) {
    const sla = await trx
      .selectFrom('sla_plans')
      .select('flags')
      .where('id', '=', slaId)
      .executeTakeFirst();
    if (slaId === 0 || !sla || hasFlag(sla.flags, SLA_TRANSIENT)) set.sla_id = deptSla;
  }
  const reopened = await withReopen(trx, row, at, { set, events: [] });
  return {
    set: reopened.set,
    events: [...reopened.events, { kind: 'transferred', data: { dept: department.name } }],
    ...(change.comments === ''
      ? {}
      : {
          note: {
            title: `Ticket transferred from ${from?.name ?? ''} to ${department.name}`,
            body: change.comments,
          },
        }),
  };
}

async function planUpdate(trx: Trx, row: Row, change: Change<'update'>, at: string): Promise<Plan> {
  const set: Updateable<TicketTable> = {};
  if (change.priorityId !== undefined) {
    const priority = await trx
      .selectFrom('ticket_priorities')
      .select('id')
      .where('id', '=', change.priorityId)
      .executeTakeFirst();
    if (!priority) throw new RejectedValueError('priority_id', 'is not an existing priority');
    set.priority_id = change.priorityId;
  }
  if (change.topicId !== undefined) {
    const topic = await trx
      .selectFrom('topics')
      .select('id')
      .where('id', '=', change.topicId)
      .executeTakeFirst();
    if (!topic) throw new RejectedValueError('topic_id', 'is not an existing help topic');
    set.topic_id = change.topicId;
  }
  if (change.slaId !== undefined) {
    if (change.slaId !== 0) {
      const sla = await trx
        .selectFrom('sla_plans')
        .select('id')
        .where('id', '=', change.slaId)
        .executeTakeFirst();
      if (!sla) throw new RejectedValueError('sla_id', 'is not an existing SLA plan');
    }
    set.sla_id = change.slaId;
  }
  if (change.dueDate !== undefined) {
    if (change.dueDate !== null && change.dueDate <= at)
      throw new RejectedValueError('duedate', 'must be in the future');
    set.due_at = change.dueDate;
  }
  const changes = changedColumns(row, set);
  const names = Object.keys(changes);
  if (names.length === 0) return UNCHANGED;
  const changedSet = Object.fromEntries(
    names.map((name) => [name, set[name as keyof typeof set]]),
  ) as Updateable<TicketTable>;
  // osTicket's updateField: lastupdate now; a new SLA or due date counts the SLA due time
  // again (updateEstDueDate), clearing the overdue flag and past due times first.
  const full: Updateable<TicketTable> = { ...changedSet, last_update_at: at };
  if ('sla_id' in changes || 'due_at' in changes) {
    full.is_overdue = 0;
    if (!('due_at' in changes) && isPast(row.due_at, at)) full.due_at = null;
    const start = formatTimestamp(row.reopened_at ?? row.created_at);
    full.sla_due_at = await slaDueFrom(trx, Number(full.sla_id ?? row.sla_id), start);
  }
  // One `edited` event per field, as the staff panel's inline edits write them, named as osTicket
  // names its columns (priority: its id, decision 410); the SLA due time goes with the last.
  const after = changedColumns(row, full);
  const events: PlannedEvent[] = names.map((column) => {
    const values = changes[column] as [unknown, unknown];
    return {
      kind: 'edited',
      data: { [column === 'due_at' ? 'duedate' : column]: values },
      changes: { [column]: values },
    };
  });
  const last = events.at(-1)?.changes;
  for (const column of ['sla_due_at', 'is_overdue', 'due_at']) {
    const values = after[column];
    if (last && values && !(column in changes)) last[column] = values;
  }
  return { set: full, events };
}

async function plan(
  trx: Trx,
  row: Row,
  actor: Agent,
  change: TicketChange,
  at: string,
): Promise<Plan> {
  switch (change.kind) {
    case 'note':
      return { set: {}, events: [], note: { title: change.title, body: change.body } };
    case 'status':
      return planStatus(trx, row, change, at);
    case 'assign':
      return planAssign(trx, row, actor, change, at);
    case 'transfer':
      return planTransfer(trx, row, change, at);
    case 'update':
      return planUpdate(trx, row, change, at);
  }
}

/**
 * TicketData.changeTicket on deskgate's own schema: the ticket's row locked, then the ids
 * checked, then `ifUnmodifiedSince`, then what osTicket's staff panel writes for the action: the
 * ticket's columns with `updated` moved on, one event per change and the comments as an
 * internal note. A change that changes nothing writes nothing (a note is no change of the ticket).
 */
export async function changeTicket(
  trx: Trx,
  dialect: Dialect,
  change: TicketChange,
  at: string,
): Promise<TicketChangeResult> {
  const row = await lockTicket(trx, dialect, change.ticketId);
  const actor = await requireAgent(trx, change.staffId);
  // The change's one time: its ticket times, events and note (decision 411).
  const when = nextUpdated(row.updated_at, at);
  const planned = await plan(trx, row, actor, change, when);
  const updated = formatTimestamp(row.updated_at);
  if (change.ifUnmodifiedSince !== undefined && change.ifUnmodifiedSince !== updated)
    throw new TicketConflictError(updated);
  let entryId: number | null = null;
  if (planned.note) {
    const note = {
      ticket_id: change.ticketId,
      pid: 0,
      type: 'N',
      user_id: 0,
      staff_id: change.staffId,
      poster: actor.name,
      title: planned.note.title,
      body: planned.note.body,
      format: 'text',
      source: 'API',
      ip_address: change.ipAddress,
      created_at: planned.events.length === 0 ? at : when,
    };
    entryId = await insertEntry(trx, dialect, note);
    await feedEntry(trx, dialect, { ...note, id: entryId }, row.number);
  }
  if (planned.events.length === 0)
    return { ticketId: change.ticketId, changed: entryId !== null, updated, entryId };
  const changes = changedColumns(row, planned.set);
  const result = await trx
    .updateTable('tickets')
    .set({ ...planned.set, updated_at: when })
    .where('id', '=', change.ticketId)
    // The row is locked; the condition only makes a change that lost it fail rather than overwrite.
    .where('updated_at', '=', row.updated_at)
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) !== 1) throw new TicketConflictError(updated);
  const after = { ...row, ...planned.set };
  for (const [index, event] of planned.events.entries()) {
    await insertTicketEvent(trx, dialect, {
      ticket_id: change.ticketId,
      kind: event.kind,
      staff_id: change.staffId,
      user_id: 0,
      dept_id: Number(after.dept_id),
      topic_id: Number(after.topic_id),
      team_id: Number(after.team_id),
      data: event.data,
      // The columns the call changed, on its first event (a reopen folded in shares them).
      changes: event.changes ?? (index === 0 ? changes : null),
      at: when,
    });
  }
  return { ticketId: change.ticketId, changed: true, updated: when, entryId };
}
