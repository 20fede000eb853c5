import type { ColumnMap } from '../common/column-map.ts';
import type { TicketStatusTable } from '../tickets/own-tickets.ts';
import { type TicketStatus, type TicketStatusRow, toTicketStatus } from './ticket-status.ts';

/** deskgate's `ticket_statuses` (migration 006): no enabled bit, every row is enabled. */
export const OWN_TICKET_STATUSES: ColumnMap<TicketStatusTable, TicketStatusRow, TicketStatus> = {
  table: 'ticket_statuses',
  columns: { id: 'id', name: 'name', state: 'state', sort: 'sort' },
  toDomain: toTicketStatus,
};
