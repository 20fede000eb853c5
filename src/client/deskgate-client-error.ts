import type { ErrorCode, FieldError } from './wire-types.ts';

/** What went wrong on the client's side, when no error envelope came back. */
export type ClientErrorCode = 'timeout' | 'network_error' | 'invalid_response';

export interface DeskgateClientErrorDetails {
  status: number;
  code: ErrorCode | ClientErrorCode;
  errors?: FieldError[] | undefined;
  existingId?: string | undefined;
  updated?: string | undefined;
  requestId?: string | undefined;
  retryAfterSeconds?: number | undefined;
  cause?: unknown;
}

/**
 * A failed call: the server's error envelope (status, code, message, field errors), or a
 * timeout / network failure / unreadable answer (status 0 for the first two).
 */
export class DeskgateClientError extends Error {
  /** The HTTP status; 0 when no response came (timeout, network error). */
  readonly status: number;
  readonly code: ErrorCode | ClientErrorCode;
  /** With invalid_parameters: every problem, e.g. `{ field: 'parameters.email', … }`. */
  readonly errors: FieldError[];
  /** With duplicate_email: the user who holds the address. */
  readonly existingId: string | undefined;
  /** With conflict: the ticket's current `updated` (send it as if_unmodified_since after re-reading). */
  readonly updated: string | undefined;
  readonly requestId: string | undefined;
  /** The server's Retry-After, in seconds, on 429 and 503. */
  readonly retryAfterSeconds: number | undefined;

  constructor(message: string, details: DeskgateClientErrorDetails) {
    super(message, { cause: details.cause });
    this.name = 'DeskgateClientError';
    this.status = details.status;
    this.code = details.code;
    this.errors = details.errors ?? [];
    this.existingId = details.existingId;
    this.updated = details.updated;
    this.requestId = details.requestId;
    this.retryAfterSeconds = details.retryAfterSeconds;
  }
}
