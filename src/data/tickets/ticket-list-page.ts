import { type SelectQueryBuilder, type SqlBool, sql } from 'kysely';
import { keysetPage, pageByTime } from '../common/keyset.ts';
import type { TicketListQuery } from './ticket.ts';

/** Where a layout keeps what a ticket list filters and orders by (qualified column names). */
export interface TicketListColumns {
  id: string;
  created: string;
  lastUpdate: string;
  statusId: string;
  /** The times may be NULL (osTicket's lastupdate): such a ticket has no place in the list. */
  timesMayBeNull: boolean;
}

/** A page of tickets, the same on both layouts: of the status asked for, in (time, id) order. */
export function ticketListPage<DB, TB extends keyof DB, O>(
  select: SelectQueryBuilder<DB, TB, O>,
  columns: TicketListColumns,
  query: TicketListQuery,
): SelectQueryBuilder<DB, TB, O> {
  const time = query.order === 'created' ? columns.created : columns.lastUpdate;
  let tickets = select;
  if (columns.timesMayBeNull) tickets = tickets.where(sql<SqlBool>`${sql.ref(time)} is not null`);
  if (query.statusId !== 0) {
    tickets = tickets.where(sql<SqlBool>`${sql.ref(columns.statusId)} = ${query.statusId}`);
  }
  return keysetPage(tickets, { key: time, id: columns.id }, pageByTime(query));
}
