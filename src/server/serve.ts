import cluster from 'node:cluster';
import type { Config } from '../config.ts';
import { openStore } from '../data/open-store.ts';
import type { Logger } from '../logger.ts';
import { createFirstKey } from './first-start.ts';
import { runServer } from './run-server.ts';

function onShutdownSignal(handler: (signal: string) => void): void {
  for (const signal of ['SIGTERM', 'SIGINT'] as const) process.once(signal, () => handler(signal));
}

async function serveInThisProcess(
  config: Readonly<Config>,
  logger: Logger,
  isWorker: boolean,
): Promise<void> {
  const running = await runServer(config, logger, { announceFirstKey: !isWorker });
  onShutdownSignal((signal) => {
    logger.info({ signal }, 'shutting down');
    running.stop().then(
      () => process.exit(0),
      (error: unknown) => {
        logger.error({ err: error }, 'shutdown failed');
        process.exit(1);
      },
    );
  });
}

/**
 * The primary migrates and creates the first key, then forks `workers` processes that share
 * the port (node:cluster). A worker that dies unexpectedly is replaced.
 */
async function serveWithWorkers(config: Readonly<Config>, logger: Logger): Promise<void> {
  const { store } = await openStore(config.databaseUrl, { migrate: config.migrate });
  const banner = await createFirstKey(store, config);
  await store.close();
  let stopping = false;
  const fork = () => cluster.fork({ DESKGATE_MIGRATE: 'false' });
  for (let i = 0; i < config.workers; i++) fork();
  cluster.on('exit', (worker, code, signal) => {
    if (stopping) {
      if (Object.keys(cluster.workers ?? {}).length === 0) process.exit(0);
      return;
    }
    logger.error({ workerPid: worker.process.pid, code, signal }, 'worker died; starting another');
    fork();
  });
  if (banner) {
    cluster.once('listening', () => process.stdout.write(`${banner}\n`));
  }
  onShutdownSignal((signal) => {
    stopping = true;
    logger.info({ signal }, 'shutting down workers');
    for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill('SIGTERM');
  });
}

/** `deskgate serve`: runs until SIGTERM or SIGINT, then shuts down gracefully. */
export async function serve(config: Readonly<Config>, logger: Logger): Promise<void> {
  if (cluster.isWorker) return serveInThisProcess(config, logger, true);
  if (config.workers > 1) return serveWithWorkers(config, logger);
  return serveInThisProcess(config, logger, false);
}
