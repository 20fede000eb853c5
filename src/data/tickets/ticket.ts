import type { CreatedPosition } from '../../domain.ts';

/** One entry of a ticket's thread: M the user's message, R an agent's response, N an internal note. */
export interface TicketEntry {
  id: number;
  pid: number;
  type: 'M' | 'R' | 'N';
  userId: number;
  staffId: number;
  poster: string;
  title: string | null;
  body: string;
  format: string;
  source: string;
  ipAddress: string;
  created: string;
}

/** A ticket with its own columns (osTicket's names where it has them) and its thread, oldest first. */
export interface Ticket {
  id: number;
  pid: number | null;
  number: string;
  userId: number;
  userEmailId: number;
  statusId: number;
  deptId: number;
  slaId: number;
  topicId: number;
  staffId: number;
  teamId: number;
  emailId: number;
  lockId: number;
  flags: number;
  sort: number;
  ipAddress: string;
  source: string;
  sourceExtra: string | null;
  isOverdue: boolean;
  isAnswered: boolean;
  dueDate: string | null;
  estDueDate: string | null;
  reopened: string | null;
  closed: string | null;
  lastUpdate: string | null;
  created: string;
  updated: string;
  subject: string;
  priorityId: number;
  priority: string;
  entries: TicketEntry[];
}

/** How ticket/all selects and orders: by creation or last update time, and by status (0: any). */
export interface TicketListQuery {
  /** `created`: creation time; `lastupdate`: last update time. Pages follow (that time, id). */
  order: 'created' | 'lastupdate';
  /** Inclusive range of the ordering time; absent: no bound. */
  from: string | undefined;
  to: string | undefined;
  statusId: number;
  after: CreatedPosition | undefined;
  limit: number;
  /** Whether internal notes are part of the entries. */
  notes: boolean;
}

export type TicketLookup = { id: number } | { number: string };

export interface NewTicket {
  userId: number;
  subject: string;
  body: string;
  /** 0: what the help desk would choose (the topic's, else the default). */
  priorityId: number;
  statusId: number;
  deptId: number;
  slaId: number;
  topicId: number;
  ipAddress: string;
}

export interface NewReply {
  ticketId: number;
  staffId: number;
  body: string;
  ipAddress: string;
}

export interface TicketClosing {
  ticketId: number;
  staffId: number;
  statusId: number;
  body: string;
  ipAddress: string;
  /** The original's other fields, each checked against the ticket when not 0. */
  teamId: number;
  deptId: number;
  topicId: number;
  username: string | undefined;
}

/** What every change of a ticket names (issue 35): the ticket, the acting agent, the caller. */
interface TicketChangeOf<Kind extends string> {
  kind: Kind;
  ticketId: number;
  staffId: number;
  ipAddress: string;
  /** The ticket's `updated` as the caller read it: another → TicketConflictError, nothing written. */
  ifUnmodifiedSince: string | undefined;
}

/** A change of a ticket, as ticket/note, status, assign, transfer and update ask for it. */
export type TicketChange =
  | (TicketChangeOf<'note'> & { title: string | null; body: string })
  | (TicketChangeOf<'status'> & { statusId: number; comments: string })
  | (TicketChangeOf<'assign'> & ({ agentId: number } | { teamId: number }) & { comments: string })
  | (TicketChangeOf<'transfer'> & { deptId: number; comments: string })
  | (TicketChangeOf<'update'> & {
      priorityId?: number;
      topicId?: number;
      slaId?: number;
      /** `YYYY-MM-DD HH:MM:SS`, or null to clear it. */
      dueDate?: string | null;
    });

/** What a change did: whether it changed the ticket, its `updated` after, a new entry's id. */
export interface TicketChangeResult {
  ticketId: number;
  changed: boolean;
  updated: string;
  entryId: number | null;
}
