import type {
  NewReply,
  NewTicket,
  Ticket,
  TicketClosing,
  TicketListQuery,
  TicketLookup,
} from '../../domain.ts';
import { defineEntity, type WriteTransaction } from '../entity.ts';
import { makeOsticketTickets, OSTICKET_TICKET_TABLES } from './osticket-tickets.ts';
import { makeOwnTickets } from './own-tickets.ts';

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
   * How many tickets name the user (as the ticket's user or a message's poster) or the topic; in
   * `trx` when given. What `users delete` and `topics delete` refuse to leave dangling.
   */
  countTicketsNaming(
    reference: { userId: number } | { topicId: number },
    trx?: WriteTransaction,
  ): Promise<number>;
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
