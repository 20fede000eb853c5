import type { Kysely } from 'kysely';
import type { OsticketDatabase } from '../osticket/schema.ts';
import { UnsupportedInModeError } from '../store.ts';
import * as tasks from '../tasks/osticket-tasks.ts';
import * as tickets from './osticket-tickets.ts';
import type { TicketStore } from './ticket-store.ts';

function osticketsOwn(what: string): () => Promise<never> {
  return async () => {
    throw new UnsupportedInModeError(
      `in osTicket mode ${what} are written by osTicket itself, not by deskgate`,
    );
  };
}

/**
 * Tickets and tasks of an osTicket database: parameterised read-only SQL on its real columns.
 * Ticket writes are osTicket's own code's (the operations answer 501 before reaching here).
 */
export function makeOsticketTicketStore(db: Kysely<OsticketDatabase>): TicketStore {
  return {
    findTicket: (lookup, options) => tickets.findTicket(db, lookup, options),
    listTickets: (query) => tickets.listTickets(db, query),
    createTicket: osticketsOwn('tickets'),
    replyToTicket: osticketsOwn('responses'),
    closeTicket: osticketsOwn('ticket statuses'),
    findTask: (id) => tasks.findTask(db, id),
    listTasks: (query) => tasks.listTasks(db, query),
    createTask: osticketsOwn('tasks'),
    createAgent: osticketsOwn('agents'),
    listAgents: osticketsOwn('agents'),
  };
}
