import { Counter, Gauge, Histogram, type Registry } from 'prom-client';
import type { QueueStats } from '../data/webhooks/webhook.ts';

/** How long a scrape waits for the queue's figures from the database. */
const SCRAPE_WAIT_MS = 1000;

/** What the delivery worker reports as it goes. */
export interface WebhookMetrics {
  /** One attempt: `delivered`, `retrying` (failed, tried again later) or `failed` (given up). */
  attempt(outcome: 'delivered' | 'retrying' | 'failed', seconds: number): void;
  /** deskgate disabled a webhook whose deliveries failed for DESKGATE_WEBHOOK_DISABLE_AFTER. */
  disabled(): void;
}

/**
 * Deliveries by outcome, their latency, and, read from the database when scraped, the queue's
 * depth, the age of its oldest pending delivery and the webhooks deskgate disabled. The queue is
 * shared by every instance: under DESKGATE_WORKERS each worker reports the same figures (max).
 */
export function registerWebhookMetrics(
  registry: Registry,
  queue: () => Promise<QueueStats>,
): WebhookMetrics {
  const attempts = new Counter({
    name: 'deskgate_webhook_deliveries_total',
    help: 'Webhook delivery attempts by outcome: delivered (2xx), retrying (failed, tried again later), failed (given up).',
    labelNames: ['outcome'] as const,
    registers: [registry],
  });
  const latency = new Histogram({
    name: 'deskgate_webhook_delivery_duration_seconds',
    help: 'Time from the start of a delivery attempt to the receiver’s answer (or the failure).',
    buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers: [registry],
  });
  const disabledTotal = new Counter({
    name: 'deskgate_webhooks_disabled_total',
    help: 'Webhooks deskgate disabled because their deliveries failed for DESKGATE_WEBHOOK_DISABLE_AFTER.',
    registers: [registry],
  });
  let last: Promise<QueueStats> | undefined;
  let known: QueueStats = { pending: 0, oldestPendingMs: undefined, disabledWebhooks: 0 };
  // One query per scrape, whichever of the three gauges asks first; a database that does not
  // answer leaves the figures as they were rather than failing the whole scrape.
  // A database whose pool is busy must not hold the scrape either: after SCRAPE_WAIT_MS the
  // figures known are answered, and the query, when it ends, updates them for the next scrape.
  const read = () => {
    const answered = queue().then(
      (stats) => {
        known = stats;
        return stats;
      },
      () => known,
    );
    const waited = new Promise<QueueStats>((resolve) => {
      setTimeout(() => resolve(known), SCRAPE_WAIT_MS).unref();
    });
    last ??= Promise.race([answered, waited]).finally(() => {
      setImmediate(() => {
        last = undefined;
      });
    });
    return last;
  };
  new Gauge({
    name: 'deskgate_webhook_queue_depth',
    help: 'Webhook deliveries waiting for an attempt (pending, of enabled webhooks).',
    registers: [registry],
    aggregator: 'max',
    async collect() {
      this.set((await read()).pending);
    },
  });
  new Gauge({
    name: 'deskgate_webhook_oldest_pending_age_seconds',
    help: 'Age of the oldest pending webhook delivery; 0 when none is pending.',
    registers: [registry],
    aggregator: 'max',
    async collect() {
      const { oldestPendingMs } = await read();
      this.set(
        oldestPendingMs === undefined ? 0 : Math.max(0, (Date.now() - oldestPendingMs) / 1_000),
      );
    },
  });
  new Gauge({
    name: 'deskgate_webhooks_disabled',
    help: 'Webhooks that are disabled now (by webhook/update, or by deskgate after failing for days).',
    registers: [registry],
    aggregator: 'max',
    async collect() {
      this.set((await read()).disabledWebhooks);
    },
  });
  return {
    attempt(outcome, seconds) {
      attempts.inc({ outcome });
      latency.observe(seconds);
    },
    disabled() {
      disabledTotal.inc();
    },
  };
}
