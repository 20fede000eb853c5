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
