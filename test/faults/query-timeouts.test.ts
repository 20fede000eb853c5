import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { DATABASES } from '../helpers/databases.ts';
import { describeWithDatabase } from '../helpers/each-database.ts';
import { call, topicBody, userBody } from '../helpers/http.ts';
import { viaProxy } from '../helpers/tcp-proxy.ts';
import { useTestServer } from '../helpers/test-server.ts';
import { openTestSession, type TestSession, waitFor } from './database-sessions.ts';
import { type FreezingProxy, startFreezingProxy } from './freezing-proxy.ts';

const QUERY_TIMEOUT_MS = 1500;
/** The server-side bound, the client-side grace after it, and room for a loaded machine. */
const ANSWER_WITHIN_MS = QUERY_TIMEOUT_MS + 1000 + 2000;

// Issue 14, items 3 and 11: DESKGATE_DB_QUERY_TIMEOUT holds on every database, for a row lock
// held by another session and for a server that goes silent; the answer is 503, not 500.
for (const kind of DATABASES.filter((d) => d.name !== 'sqlite')) {
  const name = kind.name as 'postgres' | 'mysql';
  describeWithDatabase(`DESKGATE_DB_QUERY_TIMEOUT on ${name}`, kind, (database) => {
    let proxy: FreezingProxy;
    let session: TestSession;
    let key: string;

    before(async () => {
      const target = viaProxy(database.url, 0);
      proxy = await startFreezingProxy(target.host, target.port);
    });
    const server = useTestServer(() => ({
      database: viaProxy(database.url, proxy.port).url,
      env: {
        DESKGATE_DB_QUERY_TIMEOUT: String(QUERY_TIMEOUT_MS),
        DESKGATE_DB_CONNECT_TIMEOUT: '1000',
      },
    }));
    before(async () => {
      key = server.key;
      session = await openTestSession(name, database.url);
    });
    after(async () => {
      await session?.close();
      await proxy?.close();
    });

    test('a row lock held by another session: 503 within the timeout, then the write succeeds', async () => {
      const email = `locked.${Date.now()}@example.com`;
      await session.holdEmail(email);
      let elapsed: number;
      try {
        const started = performance.now();
        const reply = await call(server.url, {
          method: 'POST',
          headers: { apikey: key },
          body: userBody({ email }),
        });
        elapsed = performance.now() - started;
        assert.equal(reply.status, 503, reply.text);
        assert.equal(reply.body?.code, 'database_unavailable');
        assert.ok(
          elapsed >= QUERY_TIMEOUT_MS - 100,
          `answered after ${elapsed} ms, before the timeout`,
        );
        assert.ok(elapsed < ANSWER_WITHIN_MS, `answered after ${elapsed} ms`);
      } finally {
        await session.release();
      }
      const retried = await call(server.url, {
        method: 'POST',
        headers: { apikey: key },
        body: userBody({ email }),
      });
      assert.equal(retried.status, 200, retried.text);
    });

    test('a server that goes silent: 503 within the timeout, /healthz answers, recovery after', async () => {
      assert.equal(
        (await call(server.url, { headers: { apikey: key }, body: topicBody(1) })).status,
        200,
      );
      proxy.freeze();
      try {
        const started = performance.now();
        const replies = await Promise.all([
          call(server.url, { headers: { apikey: key }, body: topicBody(1) }),
          call(server.url, { method: 'POST', headers: { apikey: key }, body: userBody() }),
        ]);
        const elapsed = performance.now() - started;
        for (const reply of replies) {
          assert.equal(reply.status, 503, reply.text);
          assert.equal(reply.body?.code, 'database_unavailable');
        }
        assert.ok(elapsed < ANSWER_WITHIN_MS, `answered after ${elapsed} ms`);
        assert.equal((await call(`${server.origin}/healthz`)).status, 200);
      } finally {
        proxy.thaw();
      }
      const back = await waitFor(async () => {
        const reply = await call(server.url, { headers: { apikey: key }, body: topicBody(1) });
        return reply.status === 200;
      });
      assert.ok(back, 'no recovery after the server answered again');
    });
  });
}
