import type { OwnTimestamps } from '../common/own-timestamps.ts';
import { formatTimestamp } from '../time.ts';
import type { TicketTable } from './own-tickets.ts';
import type { Ticket } from './ticket.ts';

/** The columns, named alike on both layouts, of the records a ticket names after its user. */
export type TicketReferenceColumns = Record<
  'status_id' | 'dept_id' | 'sla_id' | 'topic_id' | 'staff_id' | 'team_id',
  number
>;

/** A ticket's status, department, SLA plan, topic, agent and team, as both layouts store them. */
export function ticketReferences(
  row: TicketReferenceColumns,
): Pick<Ticket, 'statusId' | 'deptId' | 'slaId' | 'topicId' | 'staffId' | 'teamId'> {
  return {
    statusId: Number(row.status_id),
    deptId: Number(row.dept_id),
    slaId: Number(row.sla_id),
    topicId: Number(row.topic_id),
    staffId: Number(row.staff_id),
    teamId: Number(row.team_id),
  };
}

/**
 * A ticket's state and times under deskgate's column names; osTicket's reads select its own
 * columns (`isoverdue`, `duedate`, `lastupdate`, …) under these names.
 */
export type TicketStateColumns = Pick<
  TicketTable,
  'is_overdue' | 'is_answered' | 'due_at' | 'sla_due_at' | 'reopened_at' | 'closed_at'
> &
  OwnTimestamps & { last_update_at: string | null };

const optionalTime = (value: string | null) => (value === null ? null : formatTimestamp(value));

/** Whether the ticket is overdue and answered, and its times, as both layouts answer them. */
export function ticketState(row: TicketStateColumns) {
  return {
    isOverdue: Number(row.is_overdue) === 1,
    isAnswered: Number(row.is_answered) === 1,
    dueDate: optionalTime(row.due_at),
    estDueDate: optionalTime(row.sla_due_at),
    reopened: optionalTime(row.reopened_at),
    closed: optionalTime(row.closed_at),
    lastUpdate: optionalTime(row.last_update_at),
    created: formatTimestamp(row.created_at),
    updated: formatTimestamp(row.updated_at),
  } satisfies Partial<Ticket>;
}
