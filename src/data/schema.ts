import type { Generated, Insertable, Selectable } from 'kysely';

/**
 * Tables of deskgate's own schema. Timestamps are UTC `YYYY-MM-DD HH:MM:SS` strings on SQLite;
 * the data layer formats whatever the driver returns into that shape.
 */
export interface TopicTable {
  id: Generated<number>;
  parent_id: number;
  is_public: number;
  sort: number;
  name: string;
  notes: string;
  created_at: string;
  updated_at: string;
}

export interface UserTable {
  id: Generated<number>;
  org_id: number;
  default_email_id: number;
  status: number;
  name: string;
  phone: number;
  created_at: string;
  updated_at: string;
}

export interface UserEmailTable {
  id: Generated<number>;
  user_id: number;
  address: string;
  /** Lower-cased address: its unique index makes email uniqueness case-insensitive. */
  address_key: string;
}

export interface UserAccountTable {
  id: Generated<number>;
  user_id: number;
  timezone: string;
  password_hash: string;
  registered_at: string;
}

export interface ApiKeyTable {
  id: Generated<number>;
  name: string;
  /** SHA-256 of the key, hex. The key itself is never stored. */
  key_hash: string;
  /** Comma-separated scopes, e.g. `read,write`. */
  scopes: string;
  /** JSON array of addresses and CIDR ranges; `[]` allows any address. */
  allow_ips: string;
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
}

export interface AuditLogTable {
  id: Generated<number>;
  at: string;
  api_key_id: number;
  client_ip: string;
  operation: string;
  target_id: string;
}

export interface IdempotencyKeyTable {
  id: Generated<number>;
  api_key_id: number;
  idempotency_key: string;
  /** SHA-256 of the request's parameters, password excepted (the password is checked against the user's hash). */
  fingerprint: string;
  user_id: number;
  created_at: string;
}

export interface Database {
  topics: TopicTable;
  users: UserTable;
  user_emails: UserEmailTable;
  user_accounts: UserAccountTable;
  api_keys: ApiKeyTable;
  audit_log: AuditLogTable;
  idempotency_keys: IdempotencyKeyTable;
}

/** The tables deskgate keeps for itself in every layout, osTicket's included. */
export type OwnTables = Pick<Database, 'audit_log' | 'idempotency_keys'>;

export type TopicRow = Selectable<TopicTable>;
export type NewTopicRow = Insertable<TopicTable>;
export type ApiKeyRow = Selectable<ApiKeyTable>;
