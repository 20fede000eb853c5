import { createServer, type Server } from 'node:http';
import { makeAuthenticator } from '../auth/authenticate.ts';
import { makeOsticketKeyPolicy } from '../auth/osticket-key-policy.ts';
import type { Config } from '../config.ts';
import type { Store } from '../data/store.ts';
import type { Limits } from '../limits/limits.ts';
import type { Logger } from '../logger.ts';
import type { Metrics } from '../metrics/metrics.ts';
import { makeClientErrorListener } from './answer-client-error.ts';
import { makeClientAddress } from './client-address.ts';
import { makeCors } from './cors.ts';
import { makeRequestHandler } from './handle-request.ts';
import { trackLatestRequests } from './latest-requests.ts';
import { makeReferenceRoutes } from './openapi/reference-routes.ts';
import { makeRouteTable, type Route } from './route-table.ts';
import { answerAlive, makeReadinessRoute } from './routes/health-routes.ts';
import { makeMetricsRoute } from './routes/metrics-route.ts';
import { makeNothingHereRoute } from './routes/nothing-here-route.ts';
import { withPreflight } from './routes/preflight-route.ts';
import { makeReferenceRoute } from './routes/reference-route.ts';
import { makeServiceRoute } from './routes/service-route.ts';
import type { ServiceCallDeps } from './service-call.ts';

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

/** The HTTP server, with what a graceful shutdown needs beyond `close()`. */
export interface DeskgateServer extends Server {
  /**
   * From now on every response closes its connection after it, those being worked on included: a
   * keep-alive connection would otherwise hold a shutdown up until its idle timeout.
   */
  closeConnectionsAfterResponses(): void;
}

/**
 * The HTTP edge on node:http: each address's route (src/http/routes/), composed here; operations
 * do the rest. node:http hands over GET bodies like any other, with Content-Length or chunked.
 */
export function makeServer(deps: ServerDeps): DeskgateServer {
  const { config, store, logger, metrics } = deps;
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
    metrics,
  };
  const base = config.basePath;
  const service: Route = {
    name: 'service',
    handle: withPreflight(cors, makeServiceRoute(config, store, metrics, callDeps)),
  };
  // /openapi.json and /docs: the document is built here, once per process.
  const reference = makeReferenceRoutes(base, config.metrics, config.servicePaths[0]);
  const referenceRoute: Route = { name: 'reference', handle: makeReferenceRoute(reference) };
  const route = makeRouteTable(
    [
      // Each service path is served with and without its trailing slash.
      ...config.servicePaths.flatMap((path) => [
        [`${base}${path.slice(0, -1)}`, service] as const,
        [`${base}${path}`, service] as const,
      ]),
      [`${base}/healthz`, { name: 'healthz', handle: answerAlive }],
      [`${base}/readyz`, { name: 'readyz', handle: makeReadinessRoute(store, logger, callDeps) }],
      [`${base}/metrics`, { name: 'metrics', handle: makeMetricsRoute(metrics) }],
      ...reference.paths.map((path) => [path, referenceRoute] as const),
    ],
    { name: 'none', handle: makeNothingHereRoute(config) },
  );
  const handleRequest = makeRequestHandler({
    route,
    clientAddress: makeClientAddress(config.trustProxy),
    cors,
    logger,
    metrics,
    isConnectionError: deps.isConnectionError,
  });

  const server = createServer(
    {
      headersTimeout: config.headersTimeoutMs,
      requestTimeout: config.requestTimeoutMs,
      keepAliveTimeout: config.keepAliveTimeoutMs,
      // Node checks the two timeouts above only this often (default 30 s): check within a second.
      connectionsCheckingInterval: Math.min(1_000, config.headersTimeoutMs),
    },
    (req, res) => {
      latest.track(req, res);
      handleRequest(req, res).catch((error: unknown) => {
        logger.error({ err: error }, 'unhandled error in request handler');
        res.destroy();
      });
    },
  );
  const latest = trackLatestRequests(server);
  server.on('clientError', makeClientErrorListener(latest, logger));
  // Beyond it node:http closes new connections at once: idle clients cannot pile up without bound.
  if (config.maxConnections > 0) server.maxConnections = config.maxConnections;
  return Object.assign(server, {
    closeConnectionsAfterResponses: latest.closeConnectionsAfterResponses,
  });
}
