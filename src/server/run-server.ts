import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import type { Config } from '../config.ts';
import { events } from '../data/events/events.ts';
import { openStore } from '../data/open-store.ts';
import type { Store } from '../data/store.ts';
import { webhooks } from '../data/webhooks/webhooks.ts';
import { type DeskgateServer, makeServer } from '../http/make-server.ts';
import { makeLimits } from '../limits/limits.ts';
import type { Logger } from '../logger.ts';
import { makeMetrics } from '../metrics/metrics.ts';
import { assertWebhookSecretsOpen, startWebhookDelivery } from '../webhooks/start-webhooks.ts';
import { announceFirstKey } from './announce-first-key.ts';
import { logAdvisories } from './log-advisories.ts';
import { SERVICE_ENTITIES } from './service-entities.ts';
import { settleWithin } from './settle-within.ts';

/** Time the closes get when in-flight requests used up the whole shutdown timeout. */
const CLOSE_FLOOR_MS = 500;

export interface RunningServer {
  address: AddressInfo;
  /** The store the server answers from, open until `stop` (tests set up and inspect data through it). */
  store: Store;
  /** Stops accepting, lets in-flight requests finish (up to the shutdown timeout), closes the database. */
  stop(): Promise<void>;
}

/** Opens the store, listens, and returns a handle to stop both. */
export async function runServer(
  config: Readonly<Config>,
  logger: Logger,
  options: {
    announceFirstKey: boolean;
    /** Log the store's advisories at start (not in each worker: the primary does; default true). */
    adviseAtStart?: boolean;
  },
): Promise<RunningServer> {
  const { store, dialect, applied, poolStats, writesWaiting } = await openStore(config, {
    migrate: config.migrate,
    entities: SERVICE_ENTITIES,
  });
  if (applied.length > 0) logger.info({ migrations: applied }, 'database migrated');
  if (options.adviseAtStart !== false) await logAdvisories(store, logger, 'start');
  try {
    await assertWebhookSecretsOpen(store, config);
  } catch (error) {
    await store.close();
    throw error;
  }
  const limits = await makeLimits(config, logger);
  let server: DeskgateServer;
  const metrics = config.metrics
    ? makeMetrics({
        poolStats,
        writesWaiting,
        database: dialect.name,
        limiterStats: limits.stats,
        webhookQueue: () => store.data(webhooks).queueStats(),
      })
    : undefined;
  try {
    server = makeServer({
      config,
      store,
      logger,
      isConnectionError: dialect.isUnavailableError,
      limits,
      metrics,
    });
    server.listen(config.port, config.host);
    await once(server, 'listening');
  } catch (error) {
    await limits.close();
    await store.close();
    throw error;
  }
  const address = server.address() as AddressInfo;
  // osTicket mode: osTicket's own changes into the feed (one reader per installation).
  const reading = new AbortController();
  const reader = store.data(events).follow?.({
    settleMs: config.eventsSettleMs,
    retentionMs: config.eventsRetentionDays * 86_400_000,
    signal: reading.signal,
    onError: (err) => logger.warn({ err }, 'reading osTicket’s history into the feed failed'),
  });
  const delivery = startWebhookDelivery(store, config, logger, metrics?.webhooks);
  let stopping: Promise<void> | undefined;
  async function stop(): Promise<void> {
    const deadline = performance.now() + config.shutdownTimeoutMs;
    reading.abort();
    server.closeConnectionsAfterResponses();
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    server.closeIdleConnections();
    const forceClose = setTimeout(() => {
      logger.warn('shutdown timeout reached; closing the remaining connections');
      server.closeAllConnections();
    }, config.shutdownTimeoutMs);
    await closed;
    clearTimeout(forceClose);
    await reader;
    // A database or Redis that stopped answering would hold these closes forever (a pool waits
    // for its connections to end): they get what is left of the shutdown timeout.
    const closes = [
      ['rate limits', limits.close()],
      // Attempts under way are recorded before the database closes (each is bounded by its timeout).
      ['database', delivery.stop().then(() => store.close())],
    ] as const;
    const outcome = await settleWithin(
      Promise.allSettled(closes.map(([, done]) => done)),
      Math.max(deadline - performance.now(), CLOSE_FLOOR_MS),
    );
    if (outcome.status === 'timeout') {
      logger.warn('shutdown timeout reached while closing connections; exiting without waiting');
    } else if (outcome.status === 'done') {
      outcome.value.forEach((result, i) => {
        if (result.status === 'rejected')
          logger.warn({ err: result.reason, what: closes[i]?.[0] }, 'closing failed');
      });
    }
    logger.info('deskgate stopped');
  }
  try {
    // Only once the server listens: a start that fails must not use up the key's one showing.
    if (options.announceFirstKey) await announceFirstKey(store, config, logger, address);
  } catch (error) {
    await stop();
    throw error;
  }
  logger.info(
    { host: address.address, port: address.port, database: dialect.name },
    'deskgate listening',
  );
  return {
    address,
    store,
    stop: () => {
      stopping ??= stop();
      return stopping;
    },
  };
}
