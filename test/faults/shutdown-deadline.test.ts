import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { DATABASES, type TestDatabase } from '../helpers/databases.ts';
import { call, topicBody } from '../helpers/http.ts';
import { createKey, type StartedServer, startServer } from '../helpers/server.ts';
import { viaProxy } from '../helpers/tcp-proxy.ts';
import { type FreezingProxy, startFreezingProxy } from './freezing-proxy.ts';

const SHUTDOWN_TIMEOUT_MS = 2000;
/** The backstop allows 2 s more; a stop that needs it still counts, one that hangs does not. */
const EXIT_WITHIN_MS = SHUTDOWN_TIMEOUT_MS + 3000;

interface Silenced {
  proxy: FreezingProxy;
  server: StartedServer;
  key: string;
}

/** Sends SIGTERM while a request waits on the frozen dependency; resolves to the ms until exit. */
async function timeShutdown({ proxy, server, key }: Silenced): Promise<number> {
  const warm = await call(server.url, { headers: { apikey: key }, body: topicBody(1) });
  assert.equal(warm.status, 200, warm.text);
  proxy.freeze();
  const stuck = call(server.url, { headers: { apikey: key }, body: topicBody(1) }).catch(
    () => undefined,
  );
  await new Promise((resolve) => setTimeout(resolve, 300));
  const started = performance.now();
  const code = await Promise.race([
    server.stop('SIGTERM'),
    new Promise<'hung'>((resolve) => setTimeout(() => resolve('hung'), 20_000).unref()),
  ]);
  const elapsed = performance.now() - started;
  if (code === 'hung') server.process.kill('SIGKILL');
  assert.notEqual(code, 'hung', `still running 20 s after SIGTERM:\n${server.output.join('\n')}`);
  await stuck;
  return elapsed;
}

// Issue 14, item 4: SIGTERM completes within DESKGATE_SHUTDOWN_TIMEOUT (plus a margin) even when
// the database or Redis has gone silent behind a frozen connection.
for (const kind of DATABASES.filter((d) => d.name !== 'sqlite')) {
  describe(`shutdown with a silent ${kind.name}`, () => {
    let database: TestDatabase;
    let proxy: FreezingProxy;

    before(async () => {
      database = await kind.create();
      const target = viaProxy(database.url, 0);
      proxy = await startFreezingProxy(target.host, target.port);
    });
    after(async () => {
      await proxy?.close();
      await database?.drop();
    });

    test('SIGTERM with a request stuck on the frozen database: exits within the shutdown timeout', async () => {
      const { key } = await createKey(database.url);
      const server = await startServer({
        databaseUrl: viaProxy(database.url, proxy.port).url,
        env: {
          DESKGATE_SHUTDOWN_TIMEOUT: String(SHUTDOWN_TIMEOUT_MS),
          // Long enough that only the shutdown deadline can end the stuck request.
          DESKGATE_DB_QUERY_TIMEOUT: '60000',
        },
      });
      const elapsed = await timeShutdown({ proxy, server, key });
      assert.ok(elapsed < EXIT_WITHIN_MS, `exited ${Math.round(elapsed)} ms after SIGTERM`);
      assert.ok(
        server.output.some((line) => line.includes('shutdown timeout reached')),
        server.output.join('\n'),
      );
    });
  });
}
