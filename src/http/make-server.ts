import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { makeAuthenticator } from '../auth/authenticate.ts';
import { makeOsticketKeyPolicy } from '../auth/osticket-key-policy.ts';
import type { Config } from '../config.ts';
import { runForRequest } from '../data/dialects/request-signal.ts';
import { MissingGrantError } from '../data/osticket/assert-grants.ts';
import type { Store } from '../data/store.ts';
import { DeskgateError } from '../errors.ts';
import type { Limits } from '../limits/limits.ts';
import type { Logger } from '../logger.ts';
import { MESSAGES } from '../messages.ts';
import type { Metrics } from '../metrics/metrics.ts';
import { advisoriesOnReadiness } from '../server/log-advisories.ts';
import { makeClientAddress } from './client-address.ts';
import { makeCors } from './cors.ts';
import { endWithTurn } from './end-with-turn.ts';
import type { HeaderList } from './header-list.ts';
import { logRequest } from './log-request.ts';
import { makeReferenceRoutes, type ReferenceRoutes } from './openapi/reference-routes.ts';
import { discardUnreadBody } from './read-body.ts';
import { pickRequestId } from './request-id.ts';
import { requestPath } from './request-path.ts';
import {
  elapsedSeconds,
  sendError,
  sendNoContent,
  sendSuccess,
  toDeskgateError,
} from './respond.ts';
import {
  authenticate,
  type CallRecord,
  runServiceCall,
  type ServiceCallDeps,
  type ServiceOutcome,
} from './service-call.ts';

export interface ServerDeps {
  config: Readonly<Config>;
  store: Store;
  logger: Logger;
  /** Tells a database outage (→ 503) from a bug (→ 500). */
  isConnectionError: (error: unknown) => boolean;
  limits: Limits;
  /** Undefined when DESKGATE_METRICS=false. */
  metrics: Metrics | undefined;
}

type Route = 'service' | 'healthz' | 'readyz' | 'metrics' | 'reference' | 'none';

function makeRouter(
  basePath: string,
  servicePaths: readonly string[],
  reference: ReferenceRoutes,
): (req: IncomingMessage) => Route {
  const routes = new Map<string, Route>([
    ...servicePaths.flatMap((path): [string, Route][] => [
      [`${basePath}${path.slice(0, -1)}`, 'service'],
      [`${basePath}${path}`, 'service'],
    ]),
    [`${basePath}/healthz`, 'healthz'],
    [`${basePath}/readyz`, 'readyz'],
    [`${basePath}/metrics`, 'metrics'],
    ...reference.paths.map((path): [string, Route] => [path, 'reference']),
  ]);
  return (req) => routes.get(requestPath(req)) ?? 'none';
}

/** The HTTP server, with what a graceful shutdown needs beyond `close()`. */
export interface DeskgateServer extends Server {
  /**
   * From now on every response closes its connection after it, those being worked on included: a
   * keep-alive connection would otherwise hold a shutdown up until its idle timeout.
   */
  closeConnectionsAfterResponses(): void;
}

/**
 * The HTTP edge on node:http: it reads, authenticates, dispatches and maps errors; operations
 * do the rest. node:http hands over GET bodies like any other, with Content-Length or chunked.
 */
export function makeServer(deps: ServerDeps): DeskgateServer {
  const { config, store, logger } = deps;
  const adviseOnReadiness = advisoriesOnReadiness(store, logger);
  const cancelsStatements = store.dialect !== 'sqlite';
  // /openapi.json and /docs: the document is built here, once per process.
  const reference = makeReferenceRoutes(config.basePath, config.metrics, config.servicePaths[0]);
  const route = makeRouter(config.basePath, config.servicePaths, reference);
  const clientAddress = makeClientAddress(config.trustProxy);
  const cors = makeCors(config.corsOrigins);
  const callDeps: ServiceCallDeps = {
    config,
    store,
    logger,
    authenticator: makeAuthenticator(store, {
      cacheTtlMs: config.keyCacheTtlMs,
      adjustKey: makeOsticketKeyPolicy(config),
    }),
    failedAuth: deps.limits.failedAuth,
    perKey: deps.limits.perKey,
    metrics: deps.metrics,
  };

  /** Service calls being worked on now, for DESKGATE_MAX_IN_FLIGHT and the in-flight gauge. */
  let inFlight = 0;
  deps.metrics?.readInFlightFrom(() => inFlight);

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const startedAt = performance.now();
    const requestId = pickRequestId(req.headers['x-request-id']);
    /** The headers of a JSON answer, whichever it is; the others set X-Request-Id themselves. */
    const head: HeaderList = ['X-Request-Id', requestId];
    cors.addAnswerHeaders(req, head);
    const clientIp = clientAddress(req);
    const record: CallRecord = {};
    const target = route(req);
    /** What a 5xx was thrown with; logged with its stack on the request line. */
    let failure: unknown;
    /** Settles once an answer sent with the loop's turn is written (end-with-turn.ts). */
    let written: Promise<void> | undefined;
    try {
      switch (target) {
        case 'service': {
          if (cors.isPreflight(req)) {
            cors.addPreflightHeaders(req, head);
            written = endWithTurn(res, 204, head);
            break;
          }
          // Shed load before any work: a flood beyond capacity gets a fast 503, not a queue.
          if (config.maxInFlight > 0 && inFlight >= config.maxInFlight) {
            throw new DeskgateError('overloaded', MESSAGES.overloaded, {
              headers: { 'Retry-After': '1' },
            });
          }
          inFlight++;
          let outcome: ServiceOutcome;
          // PostgreSQL and MariaDB: a client that goes away cancels the statements of its call
          // (decision 334). SQLite's statements are short and run in-process: nothing to cancel.
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
          // Nothing after an answer may throw: the catch below would answer a second time.
          if (outcome.found) written = sendSuccess(res, head, startedAt, outcome.data);
          else if (config.notFoundStatus === 204) written = sendNoContent(res, head, 'not_found');
          else
            written = sendError(
              res,
              head,
              startedAt,
              new DeskgateError('not_found', MESSAGES.notFound),
            );
          break;
        }
        case 'healthz':
          written = sendSuccess(res, head, startedAt, 'alive');
          break;
        case 'readyz':
          try {
            await store.ping();
          } catch (error) {
            const reason = new DeskgateError(
              'database_unavailable',
              error instanceof MissingGrantError
                ? `The database refused a grant deskgate needs: ${error.privilege} on ${error.table}.`
                : 'The database is not reachable.',
              { cause: error, headers: { 'Retry-After': '5' } },
            );
            // The reason goes to the log (as the cause); only an admin key reads it in the
            // answer: anyone else learns ready or not ready (SPEC §4a, decision 326).
            if (req.headers.apikey !== undefined) {
              const key = await authenticate(req, clientIp, callDeps);
              record.keyId = key.id;
              if (key.scopes.includes('admin')) throw reason;
            }
            throw new DeskgateError('database_unavailable', MESSAGES.notReady, {
              cause: reason,
              headers: { 'Retry-After': '5' },
            });
          }
          adviseOnReadiness();
          written = sendSuccess(res, head, startedAt, 'ready');
          break;
        case 'metrics':
          // Without the key check of the service address: keep /metrics private at the proxy or
          // network level, or turn it off (docs/monitoring.md).
          if (!deps.metrics)
            throw new DeskgateError(
              'not_found',
              'Metrics are turned off (DESKGATE_METRICS=false).',
            );
          {
            // Rendered before the head is written: a failed collection still gets its 500.
            const text = await deps.metrics.render();
            res.writeHead(200, {
              'X-Request-Id': requestId,
              'Content-Type': deps.metrics.contentType,
            });
            res.end(text);
          }
          break;
        case 'reference':
          res.setHeader('X-Request-Id', requestId);
          reference.send(req, res);
          break;
        case 'none':
          throw new DeskgateError(
            'not_found',
            `Nothing here; the service address is ${config.servicePaths.map((path) => `${config.basePath}${path}`).join(' or ')}.`,
          );
      }
    } catch (thrown) {
      const error = toDeskgateError(thrown, deps.isConnectionError);
      if (error.status >= 500) failure = thrown;
      if (res.headersSent) {
        res.destroy();
      } else {
        discardUnreadBody(req, res);
        written = sendError(res, head, startedAt, error);
      }
    }
    // The request line and the duration metric include the wait for the turn's writes.
    if (written) await written;
    const seconds = elapsedSeconds(startedAt);
    deps.metrics?.observeRequest(record.operation ?? target, res.statusCode, seconds);
    logRequest(logger, {
      requestId,
      req,
      clientIp,
      statusCode: res.statusCode,
      seconds,
      operation: record.operation,
      keyId: record.keyId,
      err: failure,
    });
  }

  /**
   * The latest request of each connection, kept until the next one or the connection's end (one
   * listener per connection, none per request), so that a parse error cannot cut off an answer
   * still being written, and a shutdown can close the connection after it.
   */
  const latest = new Map<Duplex, { req: IncomingMessage; res: ServerResponse }>();
  let closingConnections = false;

  const server = createServer(
    {
      headersTimeout: config.headersTimeoutMs,
      requestTimeout: config.requestTimeoutMs,
      keepAliveTimeout: config.keepAliveTimeoutMs,
      // Node checks the two timeouts above only this often (default 30 s): check within a second.
      connectionsCheckingInterval: Math.min(1_000, config.headersTimeoutMs),
    },
    (req, res) => {
      latest.set(req.socket, { req, res });
      if (closingConnections) res.setHeader('Connection', 'close');
      handle(req, res).catch((error: unknown) => {
        logger.error({ err: error }, 'unhandled error in request handler');
        res.destroy();
      });
    },
  );
  server.on('connection', (socket: Duplex) => socket.once('close', () => latest.delete(socket)));
  // Without this, Node answers a request it cannot parse with a bare 400/431 (no envelope, no
  // request id). A request timeout keeps Node's bare 408: the closed set of codes has none for it.
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => {
    if (error.code === 'ECONNRESET' || !socket.writable) {
      socket.destroy();
      return;
    }
    // Bytes that do not parse after a whole request (pipelined junk) must not cut off that
    // request's answer, whose work may already be committed: answer it first, then the junk,
    // then close. An error in the request still being received (a timeout, a broken chunk) is
    // about that request: answered at once, as it will never be whole.
    const current = latest.get(socket);
    const pending =
      current?.req.complete && !current.res.writableFinished ? current.res : undefined;
    if (pending) {
      let answered = false;
      const afterwards = () => {
        if (answered) return;
        answered = true;
        // If that answer closes the connection itself, node:http ends it once it is written.
        if (socket.writable) answerClientError(error, socket);
      };
      pending.once('finish', afterwards);
      pending.once('close', afterwards);
      return;
    }
    answerClientError(error, socket);
  });

  function answerClientError(error: NodeJS.ErrnoException, socket: Duplex): void {
    if (!socket.writable) {
      socket.destroy();
      return;
    }
    if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT') {
      socket.end('HTTP/1.1 408 Request Timeout\r\nConnection: close\r\n\r\n', () =>
        socket.destroy(),
      );
      return;
    }
    const requestId = pickRequestId(undefined);
    const payload = JSON.stringify({
      status: 'Error',
      time: 0,
      data:
        error.code === 'HPE_HEADER_OVERFLOW'
          ? 'The request headers are too large.'
          : MESSAGES.malformedHttp,
      code: 'invalid_request',
    });
    socket.end(
      [
        'HTTP/1.1 400 Bad Request',
        'Content-Type: application/json; charset=utf-8',
        `Content-Length: ${Buffer.byteLength(payload)}`,
        `X-Request-Id: ${requestId}`,
        'Connection: close',
        '',
        payload,
      ].join('\r\n'),
      // The server allows half-open sockets: close ours even if the client never closes its side.
      () => socket.destroy(),
    );
    logger.warn({ requestId, res: { statusCode: 400 }, reason: error.code }, 'malformed request');
  }
  // Beyond it node:http closes new connections at once: idle clients cannot pile up without bound.
  if (config.maxConnections > 0) server.maxConnections = config.maxConnections;
  return Object.assign(server, {
    closeConnectionsAfterResponses() {
      closingConnections = true;
      for (const { res } of latest.values())
        if (!res.headersSent) res.setHeader('Connection', 'close');
    },
  });
}
