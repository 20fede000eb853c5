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
