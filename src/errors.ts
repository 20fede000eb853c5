/** Every error a caller can see, with its HTTP status. The set is closed: clients match on `code`. */
export const ERROR_STATUS = {
  invalid_json: 400,
  invalid_request: 400,
  unknown_operation: 400,
  invalid_parameters: 400,
  /** A list without `parameters.limit` matched more than DESKGATE_MAX_LIST elements: page it. */
  too_many_results: 400,
  missing_api_key: 401,
  invalid_api_key: 401,
  insufficient_scope: 403,
  ip_not_allowed: 403,
  /** A ticket write as an agent the key was not given (SPEC §4a); the message names the grant. */
  agent_not_allowed: 403,
  not_found: 404,
  method_not_allowed: 405,
  duplicate_email: 409,
  /** osTicket mode: a ticket/add with this Idempotency-Key is still with osTicket (decision 240). */
  write_in_progress: 409,
  /** osTicket mode: osTicket's own checks refused to close the ticket. */
  not_closeable: 409,
  /** A ticket change's `if_unmodified_since` is not the ticket's `updated` any more (§8d). */
  conflict: 409,
  /** osTicket mode: osTicket's ban list, a ticket filter or the agent's permissions refused it. */
  osticket_refused: 403,
  /** osTicket mode: user/add into an organization (or as its primary contact) needs the key's account grant. */
  account_grant_required: 403,
  /** events/since: the cursor is older than the feed's retention (DESKGATE_EVENTS_RETENTION_DAYS). */
  cursor_expired: 410,
  payload_too_large: 413,
  unsupported_media_type: 415,
  idempotency_mismatch: 422,
  /** osTicket mode: a ticket write needs osTicket's own code, which is not set up. */
  requires_osticket_bridge: 501,
  /** Webhooks need DESKGATE_WEBHOOK_ENCRYPTION_KEY, which is not set (or does not open a secret). */
  webhooks_not_configured: 501,
  too_many_requests: 429,
  internal_error: 500,
  database_unavailable: 503,
  /** osTicket mode: osTicket is unreachable or refuses deskgate's own osTicket key. */
  osticket_unavailable: 502,
  /** osTicket mode: osTicket did not answer within DESKGATE_OSTICKET_TIMEOUT. */
  osticket_timeout: 504,
  /** The instance is at its in-flight limit (DESKGATE_MAX_IN_FLIGHT); retry after Retry-After. */
  overloaded: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

export interface FieldError {
  field: string;
  message: string;
}

export interface DeskgateErrorOptions {
  errors?: FieldError[];
  /** Extra members of the error envelope, e.g. `existing_id` on a duplicate email, `updated` on a conflict. */
  extra?: Record<string, string>;
  /** Extra response headers, e.g. `Allow` or `Retry-After`. */
  headers?: Record<string, string>;
  cause?: unknown;
}

/** The one error type the HTTP edge turns into an envelope; anything else becomes a 500. */
export class DeskgateError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly errors: FieldError[] | undefined;
  readonly extra: Record<string, string> | undefined;
  readonly headers: Record<string, string> | undefined;

  constructor(code: ErrorCode, message: string, options: DeskgateErrorOptions = {}) {
    // A caller's mistake (4xx) needs no stack trace, and capturing one was a measurable share of
    // answering a wrong key or a bad parameter; a server-side failure keeps its stack.
    const stackTraceLimit = Error.stackTraceLimit;
    if (ERROR_STATUS[code] < 500) Error.stackTraceLimit = 0;
    super(message, { cause: options.cause });
    Error.stackTraceLimit = stackTraceLimit;
    this.name = 'DeskgateError';
    this.code = code;
    this.status = ERROR_STATUS[code];
    this.errors = options.errors;
    this.extra = options.extra;
    this.headers = options.headers;
  }
}
