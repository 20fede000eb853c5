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
