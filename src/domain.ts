/**
 * Domain objects: what operations and commands work with, independent of any table layout. An
 * entity's own objects are beside it (src/data/departments/department.ts); here stay the ones
 * several entities and layers share, and those of the entities not restructured yet (issue 33).
 */

/**
 * `read`: topic look-ups; `write`: user creation; `users:read`: user look-ups (personal data, so a
 * key that serves a public portal must not get it by accident); `tickets:read` / `tickets:write`:
 * ticket and task look-ups / ticket add, reply and close; `admin`: department/add, sla/add and
 * sla/delete, never given by default; `webhooks:manage`: the webhook operations (where events go,
 * with their signing secrets), never given by default either.
 */
export type Scope =
  | 'read'
  | 'write'
  | 'users:read'
  | 'tickets:read'
  | 'tickets:write'
  | 'admin'
  | 'webhooks:manage';
export const SCOPES: readonly Scope[] = [
  'read',
  'write',
  'users:read',
  'tickets:read',
  'tickets:write',
  'admin',
  'webhooks:manage',
];
/** Scopes a key gets only when asked for by name (`--scope admin`, `--scope webhooks:manage`). */
export const EXPLICIT_SCOPES: ReadonlySet<Scope> = new Set<Scope>(['admin', 'webhooks:manage']);
/** What the first key and `keys create` without `--scope` get: every scope but the explicit ones. */
export const DEFAULT_SCOPES: readonly Scope[] = SCOPES.filter(
  (scope) => !EXPLICIT_SCOPES.has(scope),
);
/** Scopes whose operations write: they record themselves in their own transaction. */
export const WRITE_SCOPES: ReadonlySet<Scope> = new Set<Scope>([
  'write',
  'tickets:write',
  'admin',
  'webhooks:manage',
]);

export interface ApiKey {
  id: number;
  name: string;
  scopes: Scope[];
  allowIps: string[];
  created: string;
  lastUsed: string | null;
  revoked: string | null;
  /** When the key stops working (`keys create --expires`, the end of a rotation's grace). */
  expires: string | null;
  /** The key `keys rotate` made in its place. */
  replacedBy: number | null;
  /** Whether the key may read internal notes and tasks (with `tickets:read`): `--notes`. */
  notes: boolean;
  /**
   * The agents a ticket-writing key may act as (SPEC §4a): their ids, or `'any'`, given only by
   * an explicit `--any-agent`. Empty: the key writes tickets as no agent.
   */
  agents: number[] | 'any';
  /** What `user/add` may do beyond a pending account of its own (osTicket mode, SPEC §4a). */
  accounts: AccountGrant;
}

/** `osticket keys grant … --organizations --confirmed-accounts` (SPEC §4a). */
export interface AccountGrant {
  /** May put the user in an organization and set its primary-contact bit. */
  organizations: boolean;
  /** Portal accounts it creates are confirmed at once, not pending the person's confirmation. */
  confirmed: boolean;
}

/** Who did a write, for the audit log. */
export interface Actor {
  apiKeyId: number;
  clientIp: string;
  operation: string;
}

export interface IdempotencyClaim {
  apiKeyId: number;
  key: string;
  fingerprint: string;
}

export interface IdempotencyRecord {
  fingerprint: string;
  userId: number;
  created: string;
}

/** Where a row stands in creation order: user/all, ticket/all and tasks/all pages resume after one. */
export interface CreatedPosition {
  created: string;
  id: number;
}

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

/** Which catalogue rows a read answers: what clients see (`public`) or every row (`all`). */
export type CatalogueVisibility = 'public' | 'all';

/** Where a catalogue list resumes: the last element's sort key (name, created or '') and id. */
export interface CataloguePosition {
  key: string;
  id: number;
}

/** A page of departments or SLA plans: by `created` (inclusive range) or `name`. */
export interface CatalogueListQuery {
  order: 'created' | 'name';
  from: string | undefined;
  to: string | undefined;
  visibility: CatalogueVisibility;
  after: CataloguePosition | undefined;
  limit: number;
}
