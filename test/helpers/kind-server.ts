import type { KindDatabase } from './each-database.ts';
import { type TestServer, useTestServer } from './test-server.ts';

/**
 * The suite's server on a database of describeEachDatabaseKind: `env` over the kind's own, and no
 * key of its own in osTicket mode (keys there are osTicket's: `database.osticket.readKey`, …).
 */
export function useKindServer(
  database: KindDatabase,
  env: Record<string, string> = {},
): TestServer {
  return useTestServer(() => ({
    database: database.url,
    env: { ...database.env, ...env },
    ownKey: database.osticket === undefined,
  }));
}
