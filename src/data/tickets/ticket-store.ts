import type {
  Actor,
  Agent,
  IdempotencyClaim,
  NewAgent,
  NewReply,
  NewTask,
  NewTicket,
  Task,
  TaskListQuery,
  Ticket,
  TicketClosing,
  TicketListQuery,
  TicketLookup,
} from '../../domain.ts';

/** What ticket/add answers: the new ticket's id and number. */
export interface CreatedTicket {
  id: number;
  number: string;
}

/**
 * Tickets, tasks and agents of one layout. Writes check every id they are given and throw
 * RejectedValueError naming the parameter (`user_id`, `staff_id`, …) for one that does not exist.
 */
export interface TicketStore {
  findTicket(lookup: TicketLookup, options: { notes: boolean }): Promise<Ticket | undefined>;
  /** A page of tickets in (time, id) order; `limit` rows at most. */
  listTickets(query: TicketListQuery): Promise<Ticket[]>;
  /** The ticket, its first message, its events, the audit entry and the idempotency record, in one transaction. */
  createTicket(
    ticket: NewTicket,
    actor: Actor,
    idempotency?: IdempotencyClaim,
  ): Promise<CreatedTicket>;
  /** The new entry's id. */
  replyToTicket(reply: NewReply, actor: Actor): Promise<number>;
  closeTicket(closing: TicketClosing, actor: Actor): Promise<void>;
  findTask(id: number): Promise<Task | undefined>;
  listTasks(query: TaskListQuery): Promise<Task[]>;
  createTask(task: NewTask): Promise<Task>;
  createAgent(agent: NewAgent): Promise<Agent>;
  listAgents(): Promise<Agent[]>;
}
