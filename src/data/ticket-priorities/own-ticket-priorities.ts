import type { ColumnMap } from '../common/column-map.ts';
import type { TicketPriorityTable } from '../tickets/own-tickets.ts';
import {
  type TicketPriority,
  type TicketPriorityRow,
  toTicketPriority,
} from './ticket-priority.ts';

/** deskgate's `ticket_priorities` (migration 006). */
export const OWN_TICKET_PRIORITIES: ColumnMap<
  TicketPriorityTable,
  TicketPriorityRow,
  TicketPriority
> = {
  table: 'ticket_priorities',
  columns: { id: 'id', name: 'name', urgency: 'urgency' },
  toDomain: toTicketPriority,
};
