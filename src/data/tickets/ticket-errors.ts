import { StoreError } from '../store.ts';

/** The ticket changed since the caller read it: its `updated` is now `updated`. */
export class TicketConflictError extends StoreError {
  override name = 'TicketConflictError';
  readonly updated: string;

  constructor(updated: string) {
    super(`the ticket was changed since; its updated is now ${updated}`);
    this.updated = updated;
  }
}

/** A closed status asked for a ticket osTicket would not close (open tasks). */
export class TicketNotCloseableError extends StoreError {
  override name = 'TicketNotCloseableError';
}
