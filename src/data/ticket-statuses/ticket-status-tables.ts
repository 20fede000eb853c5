import { type ColumnMap, mappedColumns } from '../common/column-map.ts';
import type { OsticketTableRequirement } from '../osticket/osticket-requirements.ts';
import type { TicketStatus, TicketStatusRow } from './ticket-statuses.ts';

/** Both layouts' rows map alike. */
function toTicketStatus(row: TicketStatusRow): TicketStatus {
  return { id: Number(row.id), name: row.name, state: row.state };
}

/** deskgate's `ticket_statuses` (migration 006). */
export interface OwnTicketStatusTable {
  id: number;
  name: string;
  /** open, closed, archived or deleted, as osTicket's `ticket_status.state`. */
  state: string;
  sort: number;
}

/** No enabled bit: every row is enabled. */
export const OWN_TICKET_STATUSES: ColumnMap<OwnTicketStatusTable, TicketStatusRow, TicketStatus> = {
  table: 'ticket_statuses',
  columns: { id: 'id', name: 'name', state: 'state', sort: 'sort' },
  toDomain: toTicketStatus,
};

/** osTicket 1.18.1's `ticket_status` (schema-1.18.1.sql), the columns deskgate reads. */
export interface OstTicketStatusTable {
  id: number;
  name: string;
  state: string | null;
  /** Bits: 1 enabled (TicketStatus::ENABLED), 2 internal. */
  mode: number;
  sort: number;
}

export const OSTICKET_TICKET_STATUSES: ColumnMap<
  OstTicketStatusTable,
  TicketStatusRow,
  TicketStatus
> = {
  table: 'ticket_status',
  columns: { id: 'id', name: 'name', state: 'state', sort: 'sort' },
  toDomain: toTicketStatus,
};

/** TicketStatus::ENABLED (include/class.list.php): a disabled status is not offered. */
export const MODE_ENABLED = 1;

export const OSTICKET_TICKET_STATUS_TABLES: readonly OsticketTableRequirement[] = [
  {
    table: 'ticket_status',
    privileges: ['SELECT'],
    columns: [...mappedColumns(OSTICKET_TICKET_STATUSES), 'mode'],
  },
];
