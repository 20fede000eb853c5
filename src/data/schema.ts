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
  /** 1: the key may read internal notes (with tickets:read). */
  notes: Generated<number>;
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

export interface TicketStatusTable {
  id: number;
  name: string;
  /** open, closed, archived or deleted, as osTicket's `ticket_status.state`. */
  state: string;
  sort: number;
}

export interface TicketPriorityTable {
  id: number;
  name: string;
  color: string;
  urgency: number;
  is_public: number;
}

export interface SlaPlanTable {
  id: Generated<number>;
  name: string;
  grace_period: number;
  flags: number;
  notes: string;
  created_at: string;
  updated_at: string;
}

export interface DepartmentTable {
  id: Generated<number>;
  name: string;
  signature: string;
  is_public: number;
  sla_id: number;
  created_at: string;
  updated_at: string;
}

export interface AgentTable {
  id: Generated<number>;
  username: string;
  name: string;
  email: string;
  dept_id: number;
  is_active: number;
  created_at: string;
  updated_at: string;
}

export interface CounterTable {
  name: string;
  next: number;
}

export interface TicketTable {
  id: Generated<number>;
  number: string;
  user_id: number;
  status_id: number;
  priority_id: number;
  dept_id: number;
  sla_id: number;
  topic_id: number;
  staff_id: number;
  subject: string;
  source: string;
  ip_address: string;
  is_overdue: number;
  is_answered: number;
  due_at: string | null;
  sla_due_at: string | null;
  reopened_at: string | null;
  closed_at: string | null;
  last_message_at: string | null;
  last_response_at: string | null;
  last_update_at: string;
  created_at: string;
  updated_at: string;
}

export interface TicketEntryTable {
  id: Generated<number>;
  ticket_id: number;
  pid: number;
  /** M (the user's message), R (an agent's response), N (an internal note), as osTicket. */
  type: string;
  user_id: number;
  staff_id: number;
  poster: string;
  title: string | null;
  body: string;
  format: string;
  source: string;
  ip_address: string;
  created_at: string;
}

export interface TicketEventTable {
  id: Generated<number>;
  ticket_id: number;
  kind: string;
  staff_id: number;
  user_id: number;
  dept_id: number;
  topic_id: number;
  data: string | null;
  at: string;
}

export interface TaskTable {
  id: Generated<number>;
  number: string;
  ticket_id: number;
  dept_id: number;
  staff_id: number;
  title: string;
  description: string;
  due_at: string | null;
  closed_at: string | null;
  created_at: string;
  updated_at: string;
}

export interface Database {
  ticket_statuses: TicketStatusTable;
  ticket_priorities: TicketPriorityTable;
  sla_plans: SlaPlanTable;
  departments: DepartmentTable;
  agents: AgentTable;
  counters: CounterTable;
  tickets: TicketTable;
  ticket_entries: TicketEntryTable;
  ticket_events: TicketEventTable;
  tasks: TaskTable;
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
