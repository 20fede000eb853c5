import {
  type ColumnMap,
  columnOf,
  mappedColumns,
  readRows,
  selectRows,
} from '../common/column-map.ts';
import { defineEntity } from '../entity.ts';

/** A ticket priority (priority/all): osTicket's `ticket_priority`. */
export interface TicketPriority {
  id: number;
  /** What agents and clients see: osTicket's `priority_desc` ("High"), not its key ("high"). */
  name: string;
  /** 1 the most urgent (Emergency), larger less. */
  urgency: number;
}

interface TicketPriorityRow {
  id: number;
  name: string;
  urgency: number;
}

/** deskgate's `ticket_priorities` (migration 006). */
interface OwnTicketPriorityTable {
  id: number;
  name: string;
  urgency: number;
}

/** osTicket 1.18.1's `ticket_priority` (schema-1.18.1.sql), the columns deskgate reads. */
interface OstTicketPriorityTable {
  priority_id: number;
  priority_desc: string;
  priority_urgency: number;
}

const toTicketPriority = (row: TicketPriorityRow): TicketPriority => ({
  id: Number(row.id),
  name: row.name,
  urgency: Number(row.urgency),
});

const OWN_PRIORITIES: ColumnMap<OwnTicketPriorityTable, TicketPriorityRow, TicketPriority> = {
  table: 'ticket_priorities',
  columns: { id: 'id', name: 'name', urgency: 'urgency' },
  toDomain: toTicketPriority,
};

const OSTICKET_PRIORITIES: ColumnMap<OstTicketPriorityTable, TicketPriorityRow, TicketPriority> = {
  table: 'ticket_priority',
  columns: { id: 'priority_id', name: 'priority_desc', urgency: 'priority_urgency' },
  toDomain: toTicketPriority,
};

export interface TicketPriorityData {
  /** Every priority, in id order, `limit` at most (agents may set any, public or not). */
  list(limit: number): Promise<TicketPriority[]>;
}

function listPriorities<Table>(
  handle: { db: Parameters<typeof selectRows>[0] },
  map: ColumnMap<Table, TicketPriorityRow, TicketPriority>,
): TicketPriorityData {
  return {
    list: (limit) =>
      readRows(selectRows(handle.db, map).orderBy(columnOf(map, 'id')).limit(limit), map),
  };
}

export const ticketPriorities = defineEntity<TicketPriorityData>({
  name: 'ticket-priorities',
  own: (handle) => listPriorities(handle, OWN_PRIORITIES),
  osticket: (handle) => listPriorities(handle, OSTICKET_PRIORITIES),
  osticketRequires: {
    comment: 'ticket priorities: read (priority/all)',
    tables: [
      {
        table: 'ticket_priority',
        privileges: ['SELECT'],
        columns: mappedColumns(OSTICKET_PRIORITIES),
      },
    ],
  },
});
