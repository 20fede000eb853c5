import { formatTimestamp } from '../time.ts';
import type { TicketEntry } from './ticket.ts';

/** A thread entry's columns as both layouts name them, `created` being its creation time. */
export interface EntryColumns {
  id: number;
  pid: number;
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
