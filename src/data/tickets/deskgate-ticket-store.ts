import type { Kysely } from 'kysely';
import * as agents from '../agents/deskgate-agents.ts';
import type { Dialect } from '../dialects/dialect.ts';
import type { Database } from '../schema.ts';
import * as tasks from '../tasks/deskgate-tasks.ts';
import * as tickets from './deskgate-tickets.ts';
import type { TicketStore } from './ticket-store.ts';

/** Tickets, tasks and agents on deskgate's own schema. */
export function makeDeskgateTicketStore(db: Kysely<Database>, dialect: Dialect): TicketStore {
  return {
    findTicket: (lookup, options) => tickets.findTicket(db, lookup, options),
    listTickets: (query) => tickets.listTickets(db, query),
    createTicket: (ticket, actor, claim) => tickets.createTicket(db, dialect, ticket, actor, claim),
    replyToTicket: (reply, actor) => tickets.replyToTicket(db, dialect, reply, actor),
    closeTicket: (closing, actor) => tickets.closeTicket(db, dialect, closing, actor),
    findTask: (id) => tasks.findTask(db, id),
    listTasks: (query) => tasks.listTasks(db, query),
    createTask: (task) => tasks.createTask(db, dialect, task),
    createAgent: (agent) => agents.createAgent(db, dialect, agent),
    listAgents: () => agents.listAgents(db),
  };
}
