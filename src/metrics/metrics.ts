import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import type { PoolStats } from '../data/dialects/dialect.ts';
import type { LimiterStats } from '../limits/limiter-backend.ts';
import { registerLimiterMetrics } from './limiter-metrics.ts';

/** What the server records; rendered in Prometheus text format at /metrics. */
export interface Metrics {
  observeRequest(operation: string, status: number, seconds: number): void;
  authFailure(reason: string): void;
  render(): Promise<string>;
  readonly contentType: string;
}

/**
 * Requests by operation and status, a latency histogram, authentication failures by reason,
 * database pool use, and the process metrics prom-client collects (CPU, memory, event loop, GC).
 * Each process has its own registry; with DESKGATE_WORKERS every series carries the worker's pid.
 */
export function makeMetrics(
  poolStats: (() => PoolStats) | undefined,
  limiterStats?: () => LimiterStats,
): Metrics {
  const registry = new Registry();
  registry.setDefaultLabels({ pid: String(process.pid) });
  collectDefaultMetrics({ register: registry });
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
  if (poolStats) {
    new Gauge({
      name: 'deskgate_db_pool_connections',
      help: 'Database pool connections by state (in use, idle), and requests waiting for one.',
      labelNames: ['state'] as const,
      registers: [registry],
      collect() {
        const stats = poolStats();
        this.set({ state: 'in_use' }, stats.total - stats.idle);
        this.set({ state: 'idle' }, stats.idle);
        this.set({ state: 'waiting' }, stats.waiting);
      },
    });
  }
  if (limiterStats) registerLimiterMetrics(registry, limiterStats);
  return {
    observeRequest(operation, status, seconds) {
      requests.inc({ operation, status: String(status) });
      duration.observe({ operation }, seconds);
    },
    authFailure(reason) {
      authFailures.inc({ reason });
    },
    render: () => registry.metrics(),
    contentType: registry.contentType,
  };
}
