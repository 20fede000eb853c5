import { formatTimestamp } from '../time.ts';
import type { TicketEntry } from './ticket.ts';

/** A thread entry's columns as both layouts name them, `created` being its creation time. */
export interface EntryColumns {
  id: number;
  pid: number;
  /** M (the user's message), R (an agent's response), N (an internal note), as osTicket. */
  type: string;
  user_id: number;
  staff_id: number;
  poster: string;
  title: string | null;
  body: string;
  format: string;
  source: string;
  ip_address: string;
  created: string;
}

export function toTicketEntry(row: EntryColumns): TicketEntry {
  return {
    id: Number(row.id),
    pid: Number(row.pid),
    type: row.type as TicketEntry['type'],
    userId: Number(row.user_id),
    staffId: Number(row.staff_id),
    poster: row.poster,
    title: row.title,
    body: row.body,
    format: row.format,
    source: row.source,
    ipAddress: row.ip_address,
    created: formatTimestamp(row.created),
  };
}

/** Each of these tickets' entries, from `rows` of any of them; `ticketOf` names a row's ticket. */
export function entriesByTicket<Row extends EntryColumns>(
  ticketIds: readonly number[],
  rows: readonly Row[],
  ticketOf: (row: Row) => unknown,
): Map<number, TicketEntry[]> {
  const byTicket = new Map<number, TicketEntry[]>(ticketIds.map((id) => [id, []]));
  for (const row of rows) byTicket.get(Number(ticketOf(row)))?.push(toTicketEntry(row));
  return byTicket;
}
