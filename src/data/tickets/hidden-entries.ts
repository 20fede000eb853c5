import type { ExpressionBuilder } from 'kysely';
import type { OsticketTicketTables } from './osticket-ticket-tables.ts';

/**
 * osTicket's ThreadEntry::FLAG_HIDDEN: set on the original when an agent edits an entry (to
 * remove a card number, say); osTicket's views never show it, nor does deskgate (decision 320).
 */
export const FLAG_HIDDEN = 0x4;

/** The thread entries osTicket shows: `flags` without the hidden bit. */
export function notHidden(eb: ExpressionBuilder<OsticketTicketTables, 'thread_entry'>) {
  return eb(eb('thread_entry.flags', '&', FLAG_HIDDEN), '=', 0);
}

/**
 * osTicket's thread order: by `created`, then id (an edit keeps the original's `created`), applied
 * in deskgate rather than by the database (issue 34: ORDER BY over the entries' join sorts their
 * TEXT bodies in a temporary table).
 */
export function byCreatedThenId(
  a: { created: unknown; id: unknown },
  b: { created: unknown; id: unknown },
): number {
  const created = String(a.created).localeCompare(String(b.created));
  return created !== 0 ? created : Number(a.id) - Number(b.id);
}
