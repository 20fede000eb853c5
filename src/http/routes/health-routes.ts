import { MissingGrantError } from '../../data/osticket/assert-grants.ts';
import type { Store } from '../../data/store.ts';
import { DeskgateError } from '../../errors.ts';
import type { Logger } from '../../logger.ts';
import { MESSAGES } from '../../messages.ts';
import { advisoriesOnReadiness } from '../../server/log-advisories.ts';
import type { Exchange, RouteHandler } from '../exchange.ts';
import { sendSuccess } from '../respond.ts';
import { authenticate, type ServiceCallDeps } from '../service-call.ts';

/** /healthz: the process answers. */
export const answerAlive: RouteHandler = (exchange) => {
  exchange.written = sendSuccess(exchange.res, exchange.head, exchange.startedAt, 'alive');
};

/** /readyz: the database answers too; why not is told to an admin key only. */
export function makeReadinessRoute(store: Store, logger: Logger, callDeps: ServiceCallDeps) {
  const adviseOnReadiness = advisoriesOnReadiness(store, logger);
  return async function answerReadiness(exchange: Exchange): Promise<void> {
    try {
      await store.ping();
    } catch (error) {
      throw await notReady(exchange, error, callDeps);
    }
    adviseOnReadiness();
    exchange.written = sendSuccess(exchange.res, exchange.head, exchange.startedAt, 'ready');
  };
}

/**
 * The reason goes to the log (as the cause); only an admin key reads it in the answer: anyone
 * else learns ready or not ready (SPEC §4a, decision 326).
 */
async function notReady(
  { req, clientIp, record }: Exchange,
  error: unknown,
  callDeps: ServiceCallDeps,
): Promise<DeskgateError> {
  const reason = new DeskgateError(
    'database_unavailable',
    error instanceof MissingGrantError
      ? `The database refused a grant deskgate needs: ${error.privilege} on ${error.table}.`
      : 'The database is not reachable.',
    { cause: error, headers: { 'Retry-After': '5' } },
  );
  if (req.headers.apikey !== undefined) {
    const key = await authenticate(req, clientIp, callDeps);
    record.keyId = key.id;
    if (key.scopes.includes('admin')) return reason;
  }
  return new DeskgateError('database_unavailable', MESSAGES.notReady, {
    cause: reason,
    headers: { 'Retry-After': '5' },
  });
}
