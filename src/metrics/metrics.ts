import cluster from 'node:cluster';
import {
  AggregatorRegistry,
  Counter,
  collectDefaultMetrics,
  Gauge,
  Histogram,
  Registry,
} from 'prom-client';
import type { PoolStats } from '../data/dialects/dialect.ts';
import type { QueueStats } from '../data/webhooks/webhook.ts';
import type { LimiterStats } from '../limits/limiter-backend.ts';
import { readPackageVersion } from '../package-files.ts';
import { askPrimaryForMetrics } from './cluster-metrics.ts';
import { registerLimiterMetrics } from './limiter-metrics.ts';
import { registerWebhookMetrics, type WebhookMetrics } from './webhook-metrics.ts';

// Constructing one installs prom-client's answer to the primary's requests for a worker's series:
// from the worker's first moments, so a scrape during its start is not held up waiting for it
// (until makeMetrics runs it answers with prom-client's empty global registry).
if (cluster.isWorker) new AggregatorRegistry();

const GAUGES_NAMED_LIKE_COUNTERS = [
  'nodejs_active_handles_total',
  'nodejs_active_requests_total',
  'nodejs_active_resources_total',
];

/** What the server records; rendered in Prometheus text format at /metrics. */
export interface Metrics {
  observeRequest(operation: string, status: number, seconds: number): void;
  authFailure(reason: string): void;
  /**
   * Where the in-flight gauge reads the requests to the service address being worked on now: the
   * server counts them anyway (DESKGATE_MAX_IN_FLIGHT), and a scrape reads the count, which costs
   * nothing per request.
   */
  readInFlightFrom(count: () => number): void;
  /** The whole process group's metrics: this process's, or every worker's under DESKGATE_WORKERS. */
  render(): Promise<string>;
  readonly contentType: string;
  /** The webhook delivery figures (src/metrics/webhook-metrics.ts); absent without `webhookQueue`. */
  readonly webhooks: WebhookMetrics | undefined;
}

export interface MetricsOptions {
  poolStats: (() => PoolStats) | undefined;
  /** SQLite: the writes waiting for the database's write lock. */
  writesWaiting?: (() => number) | undefined;
  /** `sqlite`, `postgres` or `mysql`, for deskgate_build_info. */
  database: string;
  /** The rate limits' Redis state, when they use Redis. */
  limiterStats?: (() => LimiterStats) | undefined;
  /** The webhook queue, read from the database when scraped. */
  webhookQueue?: (() => Promise<QueueStats>) | undefined;
}

/**
 * Requests by operation and status, a latency histogram, authentication failures by reason,
 * requests in flight, database pool use, build info, and the process metrics prom-client collects
 * (CPU, memory, event loop, GC). In a cluster worker the registry is also handed to prom-client's
 * AggregatorRegistry, so the primary can add up every worker's series for one scrape; each series
 * says how it is combined (`aggregator`: counters and gauges of amounts sum, build info does not).
 */
export function makeMetrics(options: MetricsOptions): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  // Gauges named like counters: promtool check metrics refuses them. The same counts by type stay
  // (nodejs_active_handles, nodejs_active_requests, nodejs_active_resources); sum() gives these.
  for (const name of GAUGES_NAMED_LIKE_COUNTERS) registry.removeSingleMetric(name);
  const requests = new Counter({
    name: 'deskgate_requests_total',
    help: 'Requests answered, by operation (or service path) and HTTP status.',
    labelNames: ['operation', 'status'] as const,
    registers: [registry],
  });
  const duration = new Histogram({
    name: 'deskgate_request_duration_seconds',
    help: 'Time from the start of a request to its response, by operation.',
    labelNames: ['operation'] as const,
    buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
    registers: [registry],
  });
  const authFailures = new Counter({
    name: 'deskgate_auth_failures_total',
    help: 'Requests refused by authentication or authorisation, by reason (the error code).',
    labelNames: ['reason'] as const,
    registers: [registry],
  });
  let inFlight = () => 0;
  new Gauge({
    name: 'deskgate_http_requests_in_flight',
    help: 'Requests to the service address being worked on now (what DESKGATE_MAX_IN_FLIGHT caps per process).',
    registers: [registry],
    aggregator: 'sum',
    collect() {
      this.set(inFlight());
    },
  });
  new Gauge({
    name: 'deskgate_build_info',
    help: 'Always 1; the labels say which deskgate runs on which Node.js and database.',
    labelNames: ['version', 'node_version', 'database'] as const,
    registers: [registry],
    // Every worker reports the same series: adding them up would say N instead of 1.
    aggregator: 'max',
  }).set(
    { version: readPackageVersion(), node_version: process.version, database: options.database },
    1,
  );
  const { poolStats } = options;
  if (poolStats) {
    new Gauge({
      name: 'deskgate_db_pool_connections',
      help: 'Database pool connections by state: in use, or idle.',
      labelNames: ['state'] as const,
      registers: [registry],
      aggregator: 'sum',
      collect() {
        const stats = poolStats();
        this.set({ state: 'in_use' }, stats.total - stats.idle);
        this.set({ state: 'idle' }, stats.idle);
      },
    });
    new Gauge({
      name: 'deskgate_db_pool_waiting_requests',
      help: 'Queries waiting for a free database pool connection.',
      registers: [registry],
      aggregator: 'sum',
      collect() {
        this.set(poolStats().waiting);
      },
    });
  }
  const { writesWaiting } = options;
  if (writesWaiting) {
    new Gauge({
      name: 'deskgate_sqlite_writes_waiting',
      help: "SQLite: writes waiting for the database's write lock (queued for the next shared transaction).",
      registers: [registry],
      aggregator: 'sum',
      collect() {
        this.set(writesWaiting());
      },
    });
  }
  if (options.limiterStats) registerLimiterMetrics(registry, options.limiterStats);
  const webhooks = options.webhookQueue
    ? registerWebhookMetrics(registry, options.webhookQueue)
    : undefined;
  if (cluster.isWorker) AggregatorRegistry.setRegistries([registry]);
  return {
    observeRequest(operation, status, seconds) {
      requests.inc({ operation, status: String(status) });
      duration.observe({ operation }, seconds);
    },
    authFailure(reason) {
      authFailures.inc({ reason });
    },
    readInFlightFrom(count) {
      inFlight = count;
    },
    render: cluster.isWorker ? askPrimaryForMetrics : () => registry.metrics(),
    contentType: registry.contentType,
    webhooks,
  };
}
