import { sql } from 'kysely';
import {
  type ColumnMap,
  columnOf,
  mappedColumns,
  readRows,
  selectRows,
} from '../common/column-map.ts';
import { defineEntity } from '../entity.ts';

/** A ticket status an agent can set (status/all): osTicket's `ticket_status`. */
export interface TicketStatus {
  id: number;
  name: string;
  /** `open` or `closed`: the states the staff panel offers (decision 400). */
  state: string;
}

/** A status row as both layouts' column maps answer it. */
interface TicketStatusRow {
  id: number;
  name: string;
  state: string;
  sort: number;
}

/** deskgate's `ticket_statuses` (migration 006): no enabled bit, every row is enabled. */
interface OwnTicketStatusTable {
  id: number;
  name: string;
  state: string;
  sort: number;
}

/** osTicket 1.18.1's `ticket_status` (schema-1.18.1.sql), the columns deskgate reads. */
interface OstTicketStatusTable {
  id: number;
  name: string;
  state: string | null;
  mode: number;
  sort: number;
}

const toTicketStatus = (row: TicketStatusRow): TicketStatus => ({
  id: Number(row.id),
  name: row.name,
  state: row.state,
});

const OWN_STATUSES: ColumnMap<OwnTicketStatusTable, TicketStatusRow, TicketStatus> = {
  table: 'ticket_statuses',
  columns: { id: 'id', name: 'name', state: 'state', sort: 'sort' },
  toDomain: toTicketStatus,
};

const OSTICKET_STATUSES: ColumnMap<OstTicketStatusTable, TicketStatusRow, TicketStatus> = {
  table: 'ticket_status',
  columns: { id: 'id', name: 'name', state: 'state', sort: 'sort' },
  toDomain: toTicketStatus,
};

/** TicketStatus::ENABLED (include/class.list.php): a disabled status is not offered. */
const MODE_ENABLED = 1;

export interface TicketStatusData {
  /**
   * The statuses a ticket can be set to, in osTicket's (sort, id) order, `limit` at most: the
   * enabled ones of state open or closed, as the staff panel's status menu lists them
   * (include/staff/ticket-view.inc.php); archived and deleted are not a status one sets.
   */
  list(limit: number): Promise<TicketStatus[]>;
}

export const ticketStatuses = defineEntity<TicketStatusData>({
  name: 'ticket-statuses',
  own(handle) {
    return {
      list: (limit) =>
        readRows(
          selectRows(handle.db, OWN_STATUSES)
            .where(columnOf(OWN_STATUSES, 'state'), 'in', ['open', 'closed'])
            .orderBy(columnOf(OWN_STATUSES, 'sort'))
            .orderBy(columnOf(OWN_STATUSES, 'id'))
            .limit(limit),
          OWN_STATUSES,
        ),
    };
  },
  osticket(handle) {
    return {
      list: (limit) =>
        readRows(
          selectRows(handle.db, OSTICKET_STATUSES)
            .where(columnOf(OSTICKET_STATUSES, 'state'), 'in', ['open', 'closed'])
            .where(sql<boolean>`(${sql.ref('mode')} & ${MODE_ENABLED}) <> 0`)
            .orderBy(columnOf(OSTICKET_STATUSES, 'sort'))
            .orderBy(columnOf(OSTICKET_STATUSES, 'id'))
            .limit(limit),
          OSTICKET_STATUSES,
        ),
    };
  },
  osticketRequires: {
    comment: 'ticket statuses: read (status/all)',
    tables: [
      {
        table: 'ticket_status',
        privileges: ['SELECT'],
        columns: [...mappedColumns(OSTICKET_STATUSES), 'mode'],
      },
    ],
  },
});
