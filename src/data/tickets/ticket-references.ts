import type { Ticket } from './ticket.ts';

/** The columns, named alike on both layouts, of the records a ticket names after its user. */
export interface TicketReferenceColumns {
  status_id: number;
  dept_id: number;
  sla_id: number;
  topic_id: number;
  staff_id: number;
  team_id: number;
}

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
