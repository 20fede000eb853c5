import type { Kysely } from 'kysely';
import { type ColumnMap, readInOrder, selectRows } from '../common/column-map.ts';
import { defineEntity } from '../entity.ts';
import {
  OSTICKET_TICKET_PRIORITIES,
  OSTICKET_TICKET_PRIORITY_TABLES,
} from './osticket-ticket-priorities.ts';
import { OWN_TICKET_PRIORITIES } from './own-ticket-priorities.ts';
import type { TicketPriority, TicketPriorityRow } from './ticket-priority.ts';

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
