import type { Config } from '../../config.ts';
import { runForRequest } from '../../data/dialects/request-signal.ts';
import type { Store } from '../../data/store.ts';
import { DeskgateError } from '../../errors.ts';
import { MESSAGES } from '../../messages.ts';
import type { Metrics } from '../../metrics/metrics.ts';
import type { Exchange } from '../exchange.ts';
import { sendError, sendNoContent, sendSuccess } from '../respond.ts';
import { runServiceCall, type ServiceCallDeps, type ServiceOutcome } from '../service-call.ts';

/**
 * The service address: one operation call, shed beyond DESKGATE_MAX_IN_FLIGHT, its statements
 * cancelled when the client goes away, and a look-up that found nothing answered as configured.
 */
export function makeServiceRoute(
  config: Pick<Readonly<Config>, 'maxInFlight' | 'notFoundStatus'>,
  store: Store,
  metrics: Metrics | undefined,
  callDeps: ServiceCallDeps,
) {
  // PostgreSQL and MariaDB: a client that goes away cancels the statements of its call
  // (decision 334). SQLite's statements are short and run in-process: nothing to cancel.
  const cancelsStatements = store.dialect !== 'sqlite';
  /** Service calls being worked on now, for DESKGATE_MAX_IN_FLIGHT and the in-flight gauge. */
  let inFlight = 0;
  metrics?.readInFlightFrom(() => inFlight);

  return async function answerServiceCall(exchange: Exchange): Promise<void> {
    const { req, res, head, clientIp, requestId, record, startedAt } = exchange;
    // Shed load before any work: a flood beyond capacity gets a fast 503, not a queue.
    if (config.maxInFlight > 0 && inFlight >= config.maxInFlight) {
      throw new DeskgateError('overloaded', MESSAGES.overloaded, {
        headers: { 'Retry-After': '1' },
      });
    }
    inFlight++;
    let outcome: ServiceOutcome;
    const gone = cancelsStatements ? new AbortController() : undefined;
    const onClose = () => {
      if (!res.writableEnded) gone?.abort();
    };
    if (gone) res.once('close', onClose);
    try {
      const call = () => runServiceCall(req, head, clientIp, requestId, record, callDeps);
      outcome = await (gone ? runForRequest(gone.signal, call) : call());
    } finally {
      inFlight--;
      if (gone) res.off('close', onClose);
    }
    if (outcome.found) exchange.written = sendSuccess(res, head, startedAt, outcome.data);
    else if (config.notFoundStatus === 204)
      exchange.written = sendNoContent(res, head, 'not_found');
    else
      exchange.written = sendError(
        res,
        head,
        startedAt,
        new DeskgateError('not_found', MESSAGES.notFound),
      );
  };
}
