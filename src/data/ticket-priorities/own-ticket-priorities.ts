import type { ColumnMap } from '../common/column-map.ts';
import {
  type TicketPriority,
  type TicketPriorityRow,
  toTicketPriority,
} from './ticket-priority.ts';

export interface TicketPriorityTable {
  id: number;
  name: string;
  color: string;
  urgency: number;
  is_public: number;
}

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
