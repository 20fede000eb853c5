import type { Kysely } from 'kysely';
import { type ColumnMap, readInOrder, selectRows } from '../common/column-map.ts';
import { defineEntity } from '../entity.ts';
import {
  OSTICKET_TICKET_PRIORITIES,
  OSTICKET_TICKET_PRIORITY_TABLES,
  OWN_TICKET_PRIORITIES,
} from './ticket-priority-tables.ts';

/** A ticket priority (priority/all): osTicket's `ticket_priority`. */
export interface TicketPriority {
  id: number;
  /** What agents and clients see: osTicket's `priority_desc` ("High"), not its key ("high"). */
  name: string;
  /** 1 the most urgent (Emergency), larger less. */
  urgency: number;
}

/** A priority row as both layouts' column maps answer it. */
export interface TicketPriorityRow {
  id: number;
  name: string;
  urgency: number;
}

export interface TicketPriorityData {
  /** Every priority, in id order, `limit` at most (agents may set any, public or not). */
  list(limit: number): Promise<TicketPriority[]>;
}

/** The reads, written once against a layout's column map. */
function priorityReads<Table>(
  db: Kysely<object>,
  map: ColumnMap<Table, TicketPriorityRow, TicketPriority>,
): TicketPriorityData {
  return {
    list: (limit) => readInOrder(selectRows(db, map), map, ['id'], limit),
  };
}

export const ticketPriorities = defineEntity<TicketPriorityData>({
  name: 'ticket-priorities',
  own: (handle) => priorityReads(handle.db, OWN_TICKET_PRIORITIES),
  osticket: (handle) => priorityReads(handle.db, OSTICKET_TICKET_PRIORITIES),
  osticketRequires: {
    comment: 'ticket priorities: read (priority/all)',
    tables: OSTICKET_TICKET_PRIORITY_TABLES,
  },
});
