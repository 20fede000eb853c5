import { type ColumnMap, mappedColumns } from '../common/column-map.ts';
import type { OsticketTableRequirement } from '../osticket/osticket-requirements.ts';
import type { OstTicketPriorityTable } from '../tickets/osticket-ticket-tables.ts';
import {
  type TicketPriority,
  type TicketPriorityRow,
  toTicketPriority,
} from './ticket-priority.ts';

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
