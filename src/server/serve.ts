import cluster from 'node:cluster';
import type { Config } from '../config.ts';
import { openStore } from '../data/open-store.ts';
import type { Logger } from '../logger.ts';
import { answerMetricsRequests } from '../metrics/cluster-metrics.ts';
import { announceFirstKey } from './announce-first-key.ts';
import { logAdvisories } from './log-advisories.ts';
import { runServer } from './run-server.ts';
import { SERVICE_ENTITIES } from './service-entities.ts';

const SHUTDOWN_SIGNALS = ['SIGTERM', 'SIGINT'] as const;
/** How far past DESKGATE_SHUTDOWN_TIMEOUT a shutdown may run before the process exits regardless. */
const SHUTDOWN_BACKSTOP_MS = 2_000;

async function serveInThisProcess(
  config: Readonly<Config>,
  logger: Logger,
  isWorker: boolean,
): Promise<void> {
  const running = await runServer(config, logger, {
    announceFirstKey: !isWorker,
    adviseAtStart: !isWorker,
  });
  let shuttingDown = false;
  const shutDown = (signal: string) => {
    if (shuttingDown) return;
    shuttingDown = true;
    logger.info({ signal }, 'shutting down');
    // Every step of stop() is bounded; this is the backstop should anything still hang.
    setTimeout(() => {
      logger.error('shutdown did not finish in time; exiting');
      process.exit(1);
    }, config.shutdownTimeoutMs + SHUTDOWN_BACKSTOP_MS).unref();
    running.stop().then(
      () => process.exit(0),
      (error: unknown) => {
        logger.error({ err: error }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  // Ctrl-C reaches a worker twice (SIGINT from the terminal, SIGTERM from the primary): one
  // shutdown is enough.
  for (const signal of SHUTDOWN_SIGNALS) process.once(signal, shutDown);
}

/**
 * The primary migrates, then forks `workers` processes that share the port (node:cluster) and
 * shows the first key once one of them listens. A worker that dies unexpectedly is replaced;
 * one that dies before it ever listened (port taken, database unreachable) would only fail
 * again, so the primary stops everything and exits 1 instead.
 */
async function serveWithWorkers(config: Readonly<Config>, logger: Logger): Promise<void> {
  const { store } = await openStore(config, {
    migrate: config.migrate,
    entities: SERVICE_ENTITIES,
  });
  await logAdvisories(store, logger, 'start');
  await store.close();
  // Workers share the port, so a scrape reaches one of them: it asks here for everyone's series.
  if (config.metrics) answerMetricsRequests();
  let stopping = false;
  const listened = new Set<number>();
  const fork = () => cluster.fork({ DESKGATE_MIGRATE: 'false' });
  const stopWorkers = () => {
    stopping = true;
    for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill('SIGTERM');
  };
  cluster.on('listening', (worker) => listened.add(worker.id));
  cluster.once('listening', (_worker, address) => {
    void (async () => {
      const opened = await openStore(config, { migrate: false, entities: SERVICE_ENTITIES });
      try {
        await announceFirstKey(opened.store, config, logger, address);
      } finally {
        await opened.store.close();
      }
    })().catch((error: unknown) => logger.error({ err: error }, 'could not create the first key'));
  });
  cluster.on('exit', (worker, code, signal) => {
    if (!stopping && !listened.has(worker.id)) {
      logger.error({ workerPid: worker.process.pid, code, signal }, 'a worker failed to start');
      process.exitCode = 1;
      stopWorkers();
    }
    if (stopping) {
      const alive = Object.values(cluster.workers ?? {}).filter((w) => w && !w.isDead());
      if (alive.length === 0) process.exit();
      return;
    }
    logger.error({ workerPid: worker.process.pid, code, signal }, 'worker died; starting another');
    fork();
  });
  for (let i = 0; i < config.workers; i++) fork();
  for (const signal of SHUTDOWN_SIGNALS) {
    process.once(signal, () => {
      logger.info({ signal }, 'shutting down workers');
      stopWorkers();
    });
  }
}

/** `deskgate serve`: runs until SIGTERM or SIGINT, then shuts down gracefully. */
export async function serve(config: Readonly<Config>, logger: Logger): Promise<void> {
  if (cluster.isWorker) {
    return serveInThisProcess(config, logger, true).catch((error: unknown) => {
      // The channel to the primary would keep a worker that failed to start alive forever.
      cluster.worker?.disconnect();
      throw error;
    });
  }
  if (config.workers > 1) return serveWithWorkers(config, logger);
  return serveInThisProcess(config, logger, false);
}
