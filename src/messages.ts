/**
 * Messages of the error envelope that do not depend on the request, shared by the code that sends
 * them and the OpenAPI document's examples, so the examples cannot drift from what callers get.
 */
export const MESSAGES = {
  notFound: 'No items found.',
  cursorExpired:
    'The cursor is older than the feed keeps events (DESKGATE_EVENTS_RETENTION_DAYS): start again with parameters.start_time and reconcile by reading the tickets.',
  invalidRequest: 'The body needs "query" and "condition", both strings.',
  methodOverride: 'X-HTTP-Method-Override may only name GET, on a POST request.',
  missingApiKey: 'An API key is required in the apikey header.',
  invalidApiKey: 'The API key is not valid.',
  ipNotAllowed: 'This API key may not be used from your address.',
  notAnObject: 'The request body must be a JSON object.',
  multipart: 'Send the body as JSON, not multipart/form-data.',
  duplicateEmail: 'A user with this email address already exists.',
  idempotencyMismatch: 'This Idempotency-Key was already used with a different request body.',
  internalError: 'Internal server error.',
  databaseUnavailable: 'The database is unavailable; try again shortly.',
  /** /readyz without an admin key: the reason is in the log. */
  notReady: 'Not ready: the database cannot serve requests; the reason is in the log.',
  overloaded: 'The service is busy; try again shortly.',
  failedAuthLimit: 'Too many failed authentication attempts; try again later.',
  malformedHttp: 'The request is not valid HTTP/1.1.',
  requiresOsticketBridge:
    "In osTicket mode, ticket writes are done by osTicket's own code: set DESKGATE_OSTICKET_URL and DESKGATE_OSTICKET_API_KEY (a key of osTicket's API bound to deskgate's address) and install deskgate's osTicket plugin in osTicket's admin panel. Nothing was written.",
  webhooksNotConfigured:
    'Webhooks need DESKGATE_WEBHOOK_ENCRYPTION_KEY (a 32-byte key, e.g. openssl rand -base64 32), which seals their signing secrets; the administrator sets it and restarts deskgate. Nothing was written.',
  requiresOsticketPlugin:
    "In osTicket mode, ticket/reply, ticket/close and a ticket/add with a department, SLA or status osTicket would not choose itself go through deskgate's osTicket plugin: install it (osticket-plugin/deskgate-bridge), put deskgate's osTicket API key on its allow-list and set DESKGATE_OSTICKET_BRIDGE=true. Nothing was written.",
  osticketPluginNotServing:
    "deskgate is set up for its osTicket plugin (DESKGATE_OSTICKET_URL, DESKGATE_OSTICKET_API_KEY, DESKGATE_OSTICKET_BRIDGE=true), but osTicket does not serve the plugin's routes (api/deskgate/…): in osTicket's admin panel (Manage → Plugins) the deskgate bridge is not installed, not enabled, or has no instance whose status is Enabled. Nothing was written.",
  requiresBridgeAgent:
    "This ticket/add sets a department, SLA or status osTicket would not choose itself, so it goes through deskgate's osTicket plugin as one of the key's agents; this key may act as several, so set DESKGATE_OSTICKET_BRIDGE_STAFF_ID to the one it acts as. Nothing was written.",
  writeInProgress:
    'A request with this Idempotency-Key is still being written by osTicket; retry after Retry-After with the same key.',
  osticketTimeout:
    'osTicket did not answer in time; whether it wrote the ticket is not known yet. Retry with the same Idempotency-Key: deskgate then answers the ticket osTicket made, or makes it once.',
  osticketUnavailable:
    "osTicket could not be reached or refused deskgate's own API key; nothing is known to be written. The log names the cause.",
  osticketRefused: 'osTicket refused the write (ban list, ticket filter or agent permission).',
  notCloseable:
    'osTicket cannot close this ticket now (already closed, open tasks or required fields).',
  notCloseableHere: 'This ticket cannot be closed now',
  conflict:
    "The ticket was changed since it was read (its updated is no longer parameters.if_unmodified_since); nothing was written. Read it again, and send its current updated (in this answer's updated) if the change still applies.",
} as const;

/**
 * account_grant_required: an osTicket-mode user/add with an organization or its primary-contact
 * bit, by a key without the organizations grant (an organization can share its tickets with its
 * members, SPEC §4a).
 */
export function accountGrantRequiredMessage(fix: string): string {
  return `Putting a user in an organization or making them its primary contact needs this key's organizations grant (members can read the organization's shared tickets): ${fix}. Nothing was written.`;
}

/**
 * agent_not_allowed: which agent, and the one command that gives it (`fix`, made by
 * src/operations/acting-agent.ts from the key).
 */
export function agentNotAllowedMessage(staffId: number | undefined, fix: string): string {
  const who = staffId === undefined ? 'as an agent' : `as agent ${staffId}`;
  return `This API key may not write tickets ${who}. An admin can allow it: ${fix}`;
}

/** unknown_operation: names the pair and every supported operation. */
/** How much of a caller's own text a message echoes: a 16 KiB name must not make a 16 KiB answer. */
const MAX_ECHOED_LENGTH = 64;

export function shortenedForEcho(value: string): string {
  return value.length > MAX_ECHOED_LENGTH ? `${value.slice(0, MAX_ECHOED_LENGTH)}…` : value;
}

function echoed(value: string): string {
  return JSON.stringify(shortenedForEcho(value));
}

export function unknownOperationMessage(
  query: string,
  condition: string,
  supported: readonly string[],
): string {
  return `Unknown operation ${echoed(query)}/${echoed(condition)}; supported: ${supported.join(', ')}.`;
}

/** method_not_allowed. */
export function methodNotAllowedMessage(operation: string, allow: string): string {
  return `${operation} must be sent with ${allow}.`;
}

/** insufficient_scope. */
export function insufficientScopeMessage(scope: string, operation: string): string {
  return `This API key lacks the "${scope}" scope needed by ${operation}.`;
}

/** insufficient_scope: a read of agent-internal text by a key without the notes grant. */
export function notesGrantMessage(operation: string, fix: string): string {
  return `${operation} answers agent-internal text: this API key needs the notes grant (${fix}).`;
}

/** payload_too_large. */
export function payloadTooLargeMessage(limit: number): string {
  return `The request body is larger than ${limit} bytes.`;
}

/** too_many_requests from the per-key limit. */
export function keyRateLimitMessage(perMinute: number): string {
  return `This API key is limited to ${perMinute} requests per minute.`;
}

/** invalid_parameters: every problem in one sentence (the `errors` list has them one by one). */
export function invalidParametersMessage(problems: readonly string[]): string {
  return `Invalid parameters: ${problems.join('; ')}.`;
}

/** too_many_results: a list asked for whole matched more than DESKGATE_MAX_LIST elements. */
export function tooManyResultsMessage(noun: string, maxList: number): string {
  return `More than ${maxList} ${noun} match, the most one answer holds; ask for them page by page: send parameters.limit (1 to 1000), then each answer's "next" as parameters.after.`;
}

/** too_many_results: the matches hold more bytes than one answer may (DESKGATE_MAX_ANSWER_BYTES). */
export function tooLargeAnswerMessage(noun: string, maxBytes: number): string {
  return `The ${noun} that match hold more than ${maxBytes} bytes, the most one answer holds; ask for them page by page: send parameters.limit (1 to 1000), then each answer's "next" as parameters.after.`;
}
