import type { IncomingMessage } from 'node:http';
import type { Authenticator } from '../auth/authenticate.ts';
import type { Config } from '../config.ts';
import { callLog } from '../data/call-log/call-log.ts';
import type { Store } from '../data/store.ts';
import { type ApiKey, WRITE_SCOPES } from '../domain.ts';
import { DeskgateError } from '../errors.ts';
import type { FailedAuthLimiter } from '../limits/failed-auth-limiter.ts';
import type { KeyRateLimiter } from '../limits/key-rate-limiter.ts';
import type { Logger } from '../logger.ts';
import {
  insufficientScopeMessage,
  MESSAGES,
  methodNotAllowedMessage,
  unknownOperationMessage,
} from '../messages.ts';
import type { Metrics } from '../metrics/metrics.ts';
import { isOsticketKey, osticketGrantCommand } from '../operations/acting-agent.ts';
import type { HttpMethod, Operation } from '../operations/operation.ts';
import { findOperation, OPERATION_NAMES, OPERATIONS } from '../operations/registry.ts';
import { addHeaders, type HeaderList } from './header-list.ts';
import { parseJsonObject, readBody } from './read-body.ts';

export interface ServiceCallDeps {
  config: Readonly<Config>;
  store: Store;
  logger: Logger;
  authenticator: Authenticator;
  failedAuth: FailedAuthLimiter;
  perKey: KeyRateLimiter;
  metrics: Metrics | undefined;
}

/** What the request log line says about a call, filled in as the call proceeds. */
export interface CallRecord {
  operation?: string;
  keyId?: number;
}

/** The caller's key, failures counted against its address as for every service call. */
export async function authenticate(
  req: IncomingMessage,
  clientIp: string,
  { authenticator, failedAuth, metrics }: ServiceCallDeps,
): Promise<ApiKey> {
  try {
    const header = req.headers.apikey;
    // The key is checked even for an address over its failure limit: a valid key is served
    // there too (SPEC §4); only failures count and only they are refused.
    return await authenticator.authenticate(Array.isArray(header) ? header[0] : header, clientIp);
  } catch (error) {
    if (!(error instanceof DeskgateError)) throw error;
    const answer =
      error.code === 'invalid_api_key' ? await failedAuth.countFailure(clientIp, error) : error;
    metrics?.authFailure(answer.code);
    throw answer;
  }
}

/**
 * The method a call is treated as: a POST carrying `X-HTTP-Method-Override: GET` is the GET it
 * names, for browsers, which cannot send a body on GET (docs/decisions/231). Only GET may be
 * named, and only on a POST.
 */
/** Every method some operation of the service address takes, for the Allow header of a HEAD. */
const SERVICE_METHODS = [...new Set(Object.values(OPERATIONS).flatMap((op) => op.methods))].join(
  ', ',
);

function methodOf(req: IncomingMessage): string {
  const override = req.headers['x-http-method-override'];
  if (override === undefined) return req.method ?? '';
  if (
    req.method !== 'POST' ||
    typeof override !== 'string' ||
    override.trim().toUpperCase() !== 'GET'
  )
    throw new DeskgateError('invalid_request', MESSAGES.methodOverride);
  return 'GET';
}

function resolveOperation(body: Record<string, unknown>, method: string): Operation {
  const { query, condition } = body;
  if (typeof query !== 'string' || typeof condition !== 'string') {
    throw new DeskgateError('invalid_request', MESSAGES.invalidRequest);
  }
  const operation = findOperation(query, condition);
  if (!operation) {
    throw new DeskgateError(
      'unknown_operation',
      unknownOperationMessage(query, condition, OPERATION_NAMES),
    );
  }
  if (!operation.methods.includes(method as HttpMethod)) {
    const allow = operation.methods.join(', ');
    throw new DeskgateError('method_not_allowed', methodNotAllowedMessage(operation.name, allow), {
      headers: { Allow: allow },
    });
  }
  return operation;
}

function readIdempotencyKey(req: IncomingMessage): string | undefined {
  const value = req.headers['idempotency-key'];
  if (typeof value !== 'string') return undefined;
  if (value === '' || value.length > 255)
    throw new DeskgateError(
      'invalid_request',
      'Idempotency-Key must be at least one character and at most 255; leave the header out for no key.',
    );
  return value;
}

/** What a service call came to: the envelope's `data`, or nothing found (where the operation says that can be). */
export type ServiceOutcome = { found: true; data: unknown } | { found: false };

/**
 * One call to the service address: authenticate (before touching the body), read and parse
 * the body, pick the operation, check method and scope, then let the operation validate its
 * `sort` and parameters and run. Adds the rate-limit headers to `head`, the answer's headers.
 * Throws a DeskgateError for the caller.
 */
export async function runServiceCall(
  req: IncomingMessage,
  head: HeaderList,
  clientIp: string,
  requestId: string,
  record: CallRecord,
  deps: ServiceCallDeps,
): Promise<ServiceOutcome> {
  const apiKey = await authenticate(req, clientIp, deps);
  record.keyId = apiKey.id;
  // Every request with a valid key counts, whatever becomes of it, so the limit bounds load.
  addHeaders(head, await deps.perKey.consume(apiKey.id));
  if (req.method === 'HEAD') {
    throw new DeskgateError(
      'method_not_allowed',
      `HEAD is not a method of the service address: send ${SERVICE_METHODS} with query, condition and parameters in the body.`,
      { headers: { Allow: SERVICE_METHODS } },
    );
  }
  if ((req.headers['content-type'] ?? '').toLowerCase().startsWith('multipart/form-data')) {
    throw new DeskgateError('unsupported_media_type', MESSAGES.multipart);
  }
  const body = parseJsonObject(await readBody(req, deps.config.bodyLimit));
  const operation = resolveOperation(body, methodOf(req));
  record.operation = operation.name;
  if (![operation.scope, ...operation.otherScopes].some((scope) => apiKey.scopes.includes(scope))) {
    deps.metrics?.authFailure('insufficient_scope');
    // An osTicket key's refusal names the admin's one command (SPEC §4a).
    const grant =
      isOsticketKey(deps.config, apiKey) && operation.scope !== 'admin'
        ? ` An admin can grant it: ${osticketGrantCommand(apiKey, { scope: operation.scope, notes: operation.needsNotes })}`
        : '';
    throw new DeskgateError(
      'insufficient_scope',
      `${insufficientScopeMessage(operation.scope, operation.name)}${grant}`,
    );
  }
  const data = await operation.run(body, {
    data: deps.store.data,
    config: deps.config,
    operation: operation.name,
    apiKey,
    clientIp,
    requestId,
    idempotencyKey: readIdempotencyKey(req),
    logger: deps.logger,
    addResponseHeader: (name, value) => {
      head.push(name, value);
    },
  });
  if (data === undefined) {
    if (!operation.nothingFound) throw new Error(`${operation.name} answered nothing`);
    return { found: false };
  }
  // Writes log themselves in their transaction; a read is recorded once it has succeeded.
  const { recordCall } = deps.store.data(callLog);
  if (!WRITE_SCOPES.has(operation.scope) && recordCall)
    await recordCall({ apiKeyId: apiKey.id, clientIp, operation: operation.name });
  return { found: true, data };
}
