import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import type { Config } from '../config.ts';
import { openStore } from '../data/open-store.ts';
import { makeServer } from '../http/make-server.ts';
import type { Logger } from '../logger.ts';
import { createFirstKey } from './first-start.ts';

export interface RunningServer {
  address: AddressInfo;
  /** Stops accepting, lets in-flight requests finish (up to the shutdown timeout), closes the database. */
  stop(): Promise<void>;
}

/** Opens the store, listens, and returns a handle to stop both. */
export async function runServer(
  config: Readonly<Config>,
  logger: Logger,
  options: { announceFirstKey: boolean },
): Promise<RunningServer> {
  const { store, dialect, applied } = await openStore(config.databaseUrl, {
    migrate: config.migrate,
  });
  if (applied.length > 0) logger.info({ migrations: applied }, 'database migrated');
  const banner = options.announceFirstKey ? await createFirstKey(store, config) : undefined;
  const server = makeServer({
    config,
    store,
    logger,
    isConnectionError: dialect.isConnectionError,
  });
  server.listen(config.port, config.host);
  try {
    await once(server, 'listening');
  } catch (error) {
    await store.close();
    throw error;
  }
  const address = server.address() as AddressInfo;
  logger.info(
    { host: address.address, port: address.port, database: dialect.name },
    'deskgate listening',
  );
  if (banner) process.stdout.write(`${banner}\n`);

  let stopping: Promise<void> | undefined;
  async function stop(): Promise<void> {
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    server.closeIdleConnections();
    const deadline = setTimeout(() => {
      logger.warn('shutdown timeout reached; closing the remaining connections');
      server.closeAllConnections();
    }, config.shutdownTimeoutMs);
    await closed;
    clearTimeout(deadline);
    await store.close();
    logger.info('deskgate stopped');
  }
  return {
    address,
    stop: () => {
      stopping ??= stop();
      return stopping;
    },
  };
}
