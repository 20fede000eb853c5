/*
 * The shapes on the wire, written out so the client's published types stand alone: a project
 * that installs deskgate for its client type-checks these files and nothing of the server's.
 * wire-types.test.ts fails to type-check when one of them drifts from the server's own.
 */

import type { TopicRecord } from './look-up-types.ts';

/** Every error code the server answers with (the `code` of the error envelope). */
export type ErrorCode =
  | 'invalid_json'
  | 'invalid_request'
  | 'unknown_operation'
  | 'invalid_parameters'
  | 'too_many_results'
  | 'missing_api_key'
  | 'invalid_api_key'
  | 'insufficient_scope'
  | 'ip_not_allowed'
  | 'not_found'
  | 'method_not_allowed'
  | 'duplicate_email'
  | 'payload_too_large'
  | 'unsupported_media_type'
  | 'too_many_results'
  | 'idempotency_mismatch'
  | 'requires_osticket_bridge'
  | 'write_in_progress'
  | 'not_closeable'
  | 'osticket_refused'
  | 'osticket_unavailable'
  | 'osticket_timeout'
  | 'too_many_requests'
  | 'internal_error'
  | 'database_unavailable'
  | 'overloaded';

/** One problem with one parameter, e.g. `{ field: 'parameters.email', message: '…' }`. */
export interface FieldError {
  field: string;
  message: string;
}

/** A help topic as the interface returns it: every value a string. */
export type Topic = TopicRecord;

/** ticket/add's fields: `title` is the subject line, `subject` the message; 0 or absent ids: the help desk chooses. */
export type NewTicketFields = {
  title: string;
  subject: string;
  user_id: number | string;
  priority_id?: number | string;
  status_id?: number | string;
  dept_id?: number | string;
  sla_id?: number | string;
  topic_id?: number | string;
};

/** ticket/reply's fields. */
export type TicketReplyFields = {
  ticket_id: number | string;
  body: string;
  staff_id: number | string;
};

/** ticket/close's fields; team, department, topic and username are checked against the ticket. */
export type TicketCloseFields = {
  ticket_id: number | string;
  staff_id: number | string;
  status_id: number | string;
  body?: string;
  team_id?: number | string;
  dept_id?: number | string;
  topic_id?: number | string;
  username?: string;
};

/** The eight fields of user/add; integers may be JSON numbers or digit strings. */
export type NewUserFields = {
  name: string;
  email: string;
  /** A bcrypt or argon2 hash is stored as sent; anything else is hashed by the server. */
  password: string;
  /** An IANA time zone name, e.g. Europe/Lisbon or UTC. */
  timezone: string;
  phone: number | string;
  org_id: number | string;
  default_email_id: number | string;
  status: number | string;
};

/** department/add's fields (needs admin): plain-text name (no < or >) and signature. */
export type DepartmentAddFields = {
  name: string;
  signature?: string | undefined;
  flags?: number | string | undefined;
  ispublic?: number | string | undefined;
};

/** sla/add's fields (needs admin): grace period 1–8760 hours. */
export type SlaAddFields = {
  name: string;
  flags?: number | string | undefined;
  grace_period: number | string;
  schedule_id?: number | string | undefined;
  notes?: string | undefined;
};
