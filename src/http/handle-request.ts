import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from '../logger.ts';
import type { Metrics } from '../metrics/metrics.ts';
import type { Cors } from './cors.ts';
import type { Exchange } from './exchange.ts';
import { logRequest } from './log-request.ts';
import { discardUnreadBody } from './read-body.ts';
import { pickRequestId } from './request-id.ts';
import { elapsedSeconds, sendError, toDeskgateError } from './respond.ts';
import type { Route } from './route-table.ts';

export interface RequestHandlerDeps {
  route: (req: IncomingMessage) => Route;
  clientAddress: (req: IncomingMessage) => string;
  cors: Cors;
  logger: Logger;
  metrics: Metrics | undefined;
  /** Tells a database outage (→ 503) from a bug (→ 500). */
  isConnectionError: (error: unknown) => boolean;
}

/**
 * What every request gets whatever its route: a request id, the CORS answer headers, an error
 * envelope for what its route throws, the duration metric and the request line.
 */
export function makeRequestHandler(deps: RequestHandlerDeps) {
  const { route, clientAddress, cors, logger, metrics, isConnectionError } = deps;
  return async function handleRequest(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const startedAt = performance.now();
    const requestId = pickRequestId(req.headers['x-request-id']);
    const exchange: Exchange = {
      req,
      res,
      requestId,
      head: ['X-Request-Id', requestId],
      startedAt,
      clientIp: clientAddress(req),
      record: {},
      written: undefined,
    };
    cors.addAnswerHeaders(req, exchange.head);
    const target = route(req);
    /** What a 5xx was thrown with; logged with its stack on the request line. */
    let failure: unknown;
    try {
      await target.handle(exchange);
    } catch (thrown) {
      const error = toDeskgateError(thrown, isConnectionError);
      if (error.status >= 500) failure = thrown;
      if (res.headersSent) {
        res.destroy();
      } else {
        discardUnreadBody(req, res);
        exchange.written = sendError(res, exchange.head, startedAt, error);
      }
    }
    // The request line and the duration metric include the wait for the turn's writes.
    if (exchange.written) await exchange.written;
    const seconds = elapsedSeconds(startedAt);
    const { record } = exchange;
    metrics?.observeRequest(record.operation ?? target.name, res.statusCode, seconds);
    logRequest(logger, {
      requestId,
      req,
      clientIp: exchange.clientIp,
      statusCode: res.statusCode,
      seconds,
      operation: record.operation,
      keyId: record.keyId,
      err: failure,
    });
  };
}
