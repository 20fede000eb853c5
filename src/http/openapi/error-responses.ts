import type { ErrorCode } from '../../errors.ts';
import {
  accountGrantRequiredMessage,
  agentNotAllowedMessage,
  insufficientScopeMessage,
  invalidParametersMessage,
  keyRateLimitMessage,
  MESSAGES,
  methodNotAllowedMessage,
  payloadTooLargeMessage,
  tooManyResultsMessage,
  unknownOperationMessage,
} from '../../messages.ts';
import { OPERATION_NAMES } from '../../operations/registry.ts';
import { errorCodesFor } from './response-schemas.ts';

/** A JSON value as OpenAPI holds it; the document is plain data. */
export type Json = { [key: string]: unknown };

export const ref = (name: string): Json => ({ $ref: `#/components/schemas/${name}` });

export const json = (schema: Json, examples?: Record<string, Json>): Json => ({
  'application/json': { schema, ...(examples ? { examples } : {}) },
});

/**
 * The message of each code's example, made by the code that makes the real one (src/messages.ts),
 * so the examples cannot drift from what callers get.
 */
const EXAMPLE_MESSAGES: Record<ErrorCode, string> = {
  invalid_json: MESSAGES.notAnObject,
  invalid_request: MESSAGES.invalidRequest,
  unknown_operation: unknownOperationMessage('topics', 'list', OPERATION_NAMES),
  invalid_parameters: invalidParametersMessage(['parameters.id is required']),
  too_many_results: tooManyResultsMessage('users', 10_000),
  missing_api_key: MESSAGES.missingApiKey,
  invalid_api_key: MESSAGES.invalidApiKey,
  insufficient_scope: insufficientScopeMessage('users:read', 'user/all'),
  ip_not_allowed: MESSAGES.ipNotAllowed,
  agent_not_allowed: agentNotAllowedMessage(
    5,
    'deskgate osticket keys grant 3 --scope tickets:read,tickets:write --agent 5',
  ),
  not_found: MESSAGES.notFound,
  method_not_allowed: methodNotAllowedMessage('topics/specific', 'GET'),
  duplicate_email: MESSAGES.duplicateEmail,
  write_in_progress: MESSAGES.writeInProgress,
  not_closeable: MESSAGES.notCloseable,
  conflict: MESSAGES.conflict,
  osticket_refused: MESSAGES.osticketRefused,
  account_grant_required: accountGrantRequiredMessage(
    'deskgate osticket keys grant 3 --scope write --organizations',
  ),
  cursor_expired: MESSAGES.cursorExpired,
  payload_too_large: payloadTooLargeMessage(16384),
  unsupported_media_type: MESSAGES.multipart,
  idempotency_mismatch: MESSAGES.idempotencyMismatch,
  requires_osticket_bridge: MESSAGES.requiresOsticketBridge,
  webhooks_not_configured: MESSAGES.webhooksNotConfigured,
  too_many_requests: keyRateLimitMessage(600),
  internal_error: MESSAGES.internalError,
  database_unavailable: MESSAGES.databaseUnavailable,
  osticket_unavailable: MESSAGES.osticketUnavailable,
  osticket_timeout: MESSAGES.osticketTimeout,
  overloaded: MESSAGES.overloaded,
};

/** The example error envelope of one code. */
export function errorExample(code: ErrorCode): Json {
  return {
    status: 'Error',
    time: 0.00031,
    data: EXAMPLE_MESSAGES[code],
    code,
    ...(code === 'invalid_parameters'
      ? { errors: [{ field: 'parameters.id', message: 'is required' }] }
      : {}),
    ...(code === 'duplicate_email' ? { existing_id: '7' } : {}),
    ...(code === 'conflict' ? { updated: '2026-11-27 21:04:05' } : {}),
  };
}

export const HEADER_REFS = {
  requestId: { $ref: '#/components/headers/X-Request-Id' },
  retryAfter: { $ref: '#/components/headers/Retry-After' },
  allow: { $ref: '#/components/headers/Allow' },
  errorCode: { $ref: '#/components/headers/X-Error-Code' },
};

/** Sent on service calls when the per-key limit is on (DESKGATE_RATE_LIMIT). */
export const RATE_LIMIT_HEADERS: Json = {
  'X-RateLimit-Limit': { $ref: '#/components/headers/X-RateLimit-Limit' },
  'X-RateLimit-Remaining': { $ref: '#/components/headers/X-RateLimit-Remaining' },
  'X-RateLimit-Reset': { $ref: '#/components/headers/X-RateLimit-Reset' },
  'RateLimit-Policy': { $ref: '#/components/headers/RateLimit-Policy' },
  RateLimit: { $ref: '#/components/headers/RateLimit' },
};

const STATUS_DESCRIPTIONS: Record<number, string> = {
  400: 'The body, its `sort` or its parameters are not acceptable.',
  401: 'No API key, or one that is unknown, revoked or malformed.',
  403: 'The key lacks the scope, or its IP allow-list excludes the caller.',
  404: 'Nothing found, with DESKGATE_NOT_FOUND_STATUS=404 (the default is the 204).',
  405: 'The operation exists but needs another method; see the Allow header.',
  409:
    'The email address is taken (case-insensitively; existing_id names its user), or the ticket ' +
    'changed since if_unmodified_since (updated is its current one).',
  413: 'The body is larger than DESKGATE_BODY_LIMIT (16 KiB by default).',
  415: 'multipart/form-data bodies are refused; send JSON.',
  422: 'The Idempotency-Key was used before with another body.',
  429:
    "Too many requests: the key's rate limit, or failed authentications from this address. " +
    'Wait Retry-After seconds.',
  500: 'A bug; the details are only in the log.',
  503: 'The database is unavailable, or the instance is busy; retry after Retry-After seconds.',
};

/** Statuses any call to the service address can get. */
export const COMMON_ERROR_STATUSES = [400, 401, 403, 405, 413, 415, 429, 500, 503];

/** The error response for one status, its `code` narrowed to the codes that status carries. */
export function errorResponse(status: number): Json {
  const codes = errorCodesFor(status);
  const headers: Json = { 'X-Request-Id': HEADER_REFS.requestId };
  if (status === 405) headers.Allow = HEADER_REFS.allow;
  if (status === 429 || status === 503) headers['Retry-After'] = HEADER_REFS.retryAfter;
  if (status === 429) Object.assign(headers, RATE_LIMIT_HEADERS);
  return {
    description: STATUS_DESCRIPTIONS[status] ?? `Error ${status}.`,
    headers,
    content: json(
      { allOf: [ref('Error'), { properties: { code: { enum: codes } } }] },
      Object.fromEntries(codes.map((code) => [code, { value: errorExample(code) }])),
    ),
  };
}
