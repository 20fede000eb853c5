import { type ColumnMap, mappedColumns } from '../common/column-map.ts';
import type { OsticketTableRequirement } from '../osticket/osticket-requirements.ts';
import type { TicketPriority, TicketPriorityRow } from './ticket-priorities.ts';

/** Both layouts' rows map alike. */
function toTicketPriority(row: TicketPriorityRow): TicketPriority {
  return { id: Number(row.id), name: row.name, urgency: Number(row.urgency) };
}

/** deskgate's `ticket_priorities` (migration 006). */
export interface OwnTicketPriorityTable {
  id: number;
  name: string;
  color: string;
  urgency: number;
  is_public: number;
}

export const OWN_TICKET_PRIORITIES: ColumnMap<
  OwnTicketPriorityTable,
  TicketPriorityRow,
  TicketPriority
> = {
  table: 'ticket_priorities',
  columns: { id: 'id', name: 'name', urgency: 'urgency' },
  toDomain: toTicketPriority,
};

/** osTicket 1.18.1's `ticket_priority` (schema-1.18.1.sql), the columns deskgate reads. */
export interface OstTicketPriorityTable {
  priority_id: number;
  priority: string;
  priority_desc: string;
  /** 1 the most urgent. */
  priority_urgency: number;
}

/** osTicket's `ticket_priority`: the name agents see is `priority_desc`. */
export const OSTICKET_TICKET_PRIORITIES: ColumnMap<
  OstTicketPriorityTable,
  TicketPriorityRow,
  TicketPriority
> = {
  table: 'ticket_priority',
  columns: { id: 'priority_id', name: 'priority_desc', urgency: 'priority_urgency' },
  toDomain: toTicketPriority,
};

export const OSTICKET_TICKET_PRIORITY_TABLES: readonly OsticketTableRequirement[] = [
  {
    table: 'ticket_priority',
    privileges: ['SELECT'],
    columns: mappedColumns(OSTICKET_TICKET_PRIORITIES),
  },
];
