import type { ColumnMap } from '../common/column-map.ts';
import { type TicketStatus, type TicketStatusRow, toTicketStatus } from './ticket-status.ts';

/** The own schema's ticket statuses (migration 006). */
export interface TicketStatusTable {
  id: number;
  name: string;
  /** open, closed, archived or deleted, as osTicket's `ticket_status.state`. */
  state: string;
  sort: number;
}

/** deskgate's `ticket_statuses` (migration 006): no enabled bit, every row is enabled. */
export const OWN_TICKET_STATUSES: ColumnMap<TicketStatusTable, TicketStatusRow, TicketStatus> = {
  table: 'ticket_statuses',
  columns: { id: 'id', name: 'name', state: 'state', sort: 'sort' },
  toDomain: toTicketStatus,
};
