import {
  type ColumnMap,
  columnOf,
  type MappedSelect,
  readInOrder,
  selectRows,
} from '../common/column-map.ts';
import { flagIsSet } from '../common/flags.ts';
import { defineEntity } from '../entity.ts';
import {
  MODE_ENABLED,
  OSTICKET_TICKET_STATUS_TABLES,
  OSTICKET_TICKET_STATUSES,
  OWN_TICKET_STATUSES,
} from './ticket-status-tables.ts';

/** A ticket status an agent can set (status/all): osTicket's `ticket_status`. */
export interface TicketStatus {
  id: number;
  name: string;
  /** `open` or `closed`: the states the staff panel offers (decision 400). */
  state: string;
}

/** A status row as both layouts' column maps answer it. */
export interface TicketStatusRow {
  id: number;
  name: string;
  state: string;
  sort: number;
}

/** The states a status change sets; archived and deleted are reached by other actions. */
const SETTABLE_STATES = ['open', 'closed'];

export interface TicketStatusData {
  /**
   * The statuses a ticket can be set to, in osTicket's (sort, id) order, `limit` at most: the
   * enabled ones of state open or closed, as the staff panel's status menu lists them
   * (include/staff/ticket-view.inc.php); archived and deleted are not a status one sets.
   */
  list(limit: number): Promise<TicketStatus[]>;
}

/** The settable statuses of `select` (over `map`'s table), in (sort, id) order. */
function settable<Table>(
  select: MappedSelect<Table>,
  map: ColumnMap<Table, TicketStatusRow, TicketStatus>,
  limit: number,
): Promise<TicketStatus[]> {
  const settable = select.where(columnOf(map, 'state'), 'in', SETTABLE_STATES);
  return readInOrder(settable, map, ['sort', 'id'], limit);
}

export const ticketStatuses = defineEntity<TicketStatusData>({
  name: 'ticket-statuses',
  own(handle) {
    return {
      list: (limit) =>
        settable(selectRows(handle.db, OWN_TICKET_STATUSES), OWN_TICKET_STATUSES, limit),
    };
  },
  osticket(handle) {
    return {
      list: (limit) =>
        settable(
          selectRows(handle.db, OSTICKET_TICKET_STATUSES).where(flagIsSet('mode', MODE_ENABLED)),
          OSTICKET_TICKET_STATUSES,
          limit,
        ),
    };
  },
  osticketRequires: {
    comment: 'ticket statuses: read (status/all)',
    tables: OSTICKET_TICKET_STATUS_TABLES,
  },
});
