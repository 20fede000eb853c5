/**
 * Domain objects: what operations and commands work with, independent of any table layout. An
 * entity's own objects are beside it (src/data/tickets/ticket.ts, src/data/users/user.ts); here
 * stay the ones several entities and layers share: keys and scopes, actors, list positions.
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
