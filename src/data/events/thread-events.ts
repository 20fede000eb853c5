import type { EventActor, EventType, NewEvent } from './event.ts';

/**
 * A ticket's history as osTicket keeps it (`thread_event.state`, deskgate's `ticket_events.kind`)
 * → the feed's type; the states left out (resent, collab, merged, linked…) are not in the feed.
 */
const TYPE_OF_STATE: Readonly<Record<string, EventType>> = {
  created: 'ticket.created',
  closed: 'ticket.status_changed',
  reopened: 'ticket.status_changed',
  assigned: 'ticket.assigned',
  released: 'ticket.assigned',
  transferred: 'ticket.transferred',
  edited: 'ticket.updated',
  overdue: 'ticket.overdue',
  deleted: 'ticket.deleted',
};

/** osTicket's event `data` (JSON or null), as an object. */
function parseData(data: string | null): Record<string, unknown> {
  if (data === null || data === '') return {};
  try {
    const parsed: unknown = JSON.parse(data);
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)
      ? (parsed as Record<string, unknown>)
      : {};
  } catch {
    return {};
  }
}

/** One row of a ticket's history, as both layouts store it. */
export interface ThreadEventRow {
  ticketId: number;
  ticketNumber: string;
  /** osTicket's `state` / deskgate's `kind`: created, closed, assigned, edited… */
  state: string;
  deptId: number;
  topicId: number;
  /** osTicket's JSON: `{"status":[3,"Closed"]}`, `{"staff":[2,"Ann"]}`, `{"fields":{…}}`… */
  data: string | null;
  at: string;
}

/** The feed event of a history row, or undefined for a state the feed leaves out. */
export function feedEventOfThreadEvent(
  row: ThreadEventRow,
  actor: EventActor,
  id?: string,
): NewEvent | undefined {
  const type = TYPE_OF_STATE[row.state];
  if (!type) return undefined;
  const details = parseData(row.data);
  const data: Record<string, unknown> = {
    state: row.state,
    dept_id: row.deptId,
    topic_id: row.topicId,
  };
  let changes: Record<string, unknown> = {};
  if (row.state === 'edited') {
    // osTicket logs an edit as {"fields": {id: [old, new]}} or {"<field>": [old, new]}.
    changes = 'fields' in details ? (details.fields as Record<string, unknown>) : details;
  } else if (Array.isArray(details.status)) {
    data.status = { id: details.status[0], name: details.status[1] };
  } else if (Array.isArray(details.staff) || Array.isArray(details.team)) {
    if (Array.isArray(details.staff)) data.staff = { id: details.staff[0], name: details.staff[1] };
    if (Array.isArray(details.team)) data.team = { id: details.team[0], name: details.team[1] };
  } else if (details.dept !== undefined) {
    data.dept = details.dept;
  }
  return {
    type,
    occurredAt: row.at,
    ticket: { id: row.ticketId, number: row.ticketNumber },
    actor,
    changes,
    data,
    ...(id === undefined ? {} : { id }),
  };
}

const TYPE_OF_ENTRY: Readonly<Record<string, EventType>> = {
  M: 'ticket.message.created',
  R: 'ticket.reply.created',
  N: 'ticket.note.created',
};

/** One entry of a ticket's thread (never its body). */
export interface ThreadEntryRow {
  ticketId: number;
  ticketNumber: string;
  entryId: number;
  /** M, R or N. */
  type: string;
  staffId: number;
  userId: number;
  at: string;
}

export function feedEventOfEntry(
  row: ThreadEntryRow,
  actor: EventActor,
  id?: string,
): NewEvent | undefined {
  const type = TYPE_OF_ENTRY[row.type];
  if (!type) return undefined;
  return {
    type,
    occurredAt: row.at,
    ticket: { id: row.ticketId, number: row.ticketNumber },
    actor,
    data: {
      entry_id: row.entryId,
      ...(row.staffId > 0 ? { staff_id: row.staffId } : {}),
      ...(row.userId > 0 ? { user_id: row.userId } : {}),
    },
    ...(id === undefined ? {} : { id }),
  };
}
