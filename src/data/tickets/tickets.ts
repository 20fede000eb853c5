import { defineEntity, type WriteTransaction } from '../entity.ts';
import { makeOsticketTickets, OSTICKET_TICKET_TABLES } from './osticket-tickets.ts';
import { makeOwnTickets } from './own-tickets.ts';
import type {
  NewReply,
  NewTicket,
  Ticket,
  TicketChange,
  TicketChangeResult,
  TicketClosing,
  TicketListQuery,
  TicketLookup,
} from './ticket.ts';

export { TicketConflictError, TicketNotCloseableError } from './ticket-errors.ts';

/** What ticket/add answers: the new ticket's id and number. */
export interface CreatedTicket {
  id: number;
  number: string;
}

/**
 * Tickets with their entries, as operations see them in every layout. The writes run in the
 * write's transaction (Writes.recordWrite), check every id they are given and throw
 * RejectedValueError naming the parameter (`user_id`, `staff_id`, …) for one that does not
 * exist; in osTicket mode they are osTicket's own code's (UnsupportedInModeError).
 */
export interface TicketData {
  findTicket(lookup: TicketLookup, options: { notes: boolean }): Promise<Ticket | undefined>;
  /** A page of tickets in (time, id) order; `limit` rows at most. */
  listTickets(query: TicketListQuery): Promise<Ticket[]>;
  /** The ticket with its number, first message and events (decisions 170–172). */
  insertTicket(trx: WriteTransaction, ticket: NewTicket, at: string): Promise<CreatedTicket>;
  /** An agent's response; resolves to the new entry's id. */
  insertReply(trx: WriteTransaction, reply: NewReply, at: string): Promise<number>;
  closeTicket(trx: WriteTransaction, closing: TicketClosing, at: string): Promise<void>;
  /**
   * A note, status, assignment, transfer or field change as the staff panel makes it (issue 35):
   * the ticket's row locked, its ids checked, a stale `ifUnmodifiedSince` refused
   * (TicketConflictError), a change that changes nothing left unwritten.
   */
  changeTicket(
    trx: WriteTransaction,
    change: TicketChange,
    at: string,
  ): Promise<TicketChangeResult>;
  /**
   * How many tickets name the user (as the ticket's user or a message's poster) or the topic; in
   * `trx` when given. What `users delete` and `topics delete` refuse to leave dangling.
   */
  countTicketsNaming(
    reference: { userId: number } | { topicId: number },
    trx?: WriteTransaction,
  ): Promise<number>;
  /**
   * In an erasure's transaction (decision 343): the user's tickets keep their ids, numbers,
   * status, times, events and entries' ids, types and times, but no longer name the user nor
   * hold their words: `marker` replaces the subject, every entry's body on them, the user's own
   * entries' poster and title, and their tasks' title and description; the user's address and
   * id go. What is done to entries the user posted on other tickets is the same as to their own.
   */
  anonymiseTicketsOf(
    trx: WriteTransaction,
    userId: number,
    marker: string,
  ): Promise<AnonymisedTickets>;
}

/** What anonymiseTicketsOf changed: ids whose stored write answers the erasure forgets too. */
export interface AnonymisedTickets {
  /** The user's tickets, now naming no one. */
  ticketIds: number[];
  /** Every entry on them. */
  entryIds: number[];
}

export const tickets = defineEntity<TicketData>({
  name: 'tickets',
  own: makeOwnTickets,
  osticket: makeOsticketTickets,
  osticketRequires: {
    comment: 'tickets: read (their writes are osTicket’s own code’s)',
    tables: OSTICKET_TICKET_TABLES,
  },
});
