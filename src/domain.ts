/** Domain objects: what operations and commands work with, independent of any table layout. */

/**
 * `read`: topic look-ups; `write`: user creation; `users:read`: user look-ups (personal data, so a
 * key that serves a public portal must not get it by accident).
 */
export type Scope = 'read' | 'write' | 'users:read';
export const SCOPES: readonly Scope[] = ['read', 'write', 'users:read'];

export interface Topic {
  id: number;
  parentId: number;
  isPublic: boolean;
  /** Whether the help desk still offers it (osTicket: active in `flags`; always true on deskgate's schema). */
  isActive: boolean;
  sort: number;
  name: string;
  notes: string;
  created: string;
  updated: string;
}

export interface NewTopic {
  id?: number | undefined;
  parentId: number;
  isPublic: boolean;
  sort: number;
  name: string;
  notes: string;
}

export interface User {
  id: number;
  name: string;
  email: string;
  timezone: string;
  phone: number;
  orgId: number;
  defaultEmailId: number;
  status: number;
  created: string;
  updated: string;
}

export interface NewUser {
  name: string;
  email: string;
  /** Always a hash (bcrypt or argon2); never a clear password. */
  passwordHash: string;
  timezone: string;
  phone: number;
  orgId: number;
  /** 0 means "the email row being created". */
  defaultEmailId: number;
  status: number;
}

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

/** Where a user stands in creation order: user/all pages resume after one. */
export interface UserPosition {
  created: string;
  id: number;
}

/** A page of users by creation time: `from` and `to` inclusive, after `after`, at most `limit`. */
export interface UserRangeQuery {
  from: string;
  to: string;
  after: UserPosition | undefined;
  limit: number;
}
