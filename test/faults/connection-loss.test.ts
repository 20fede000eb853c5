import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { DATABASES } from '../helpers/databases.ts';
import { describeWithDatabase } from '../helpers/each-database.ts';
import { call, topicBody, userBody } from '../helpers/http.ts';
import { useTestServer } from '../helpers/test-server.ts';
import { openTestSession, type TestSession, waitFor } from './database-sessions.ts';

// Issue 14, items 1 and 11: a connection that dies under a request (pg_terminate_backend,
// KILL CONNECTION, a failover) costs that request a 503, never the process or a 500.
for (const kind of DATABASES.filter((d) => d.name !== 'sqlite')) {
  const name = kind.name as 'postgres' | 'mysql';
  describeWithDatabase(
    `a database connection ended under deskgate on ${name}`,
    kind,
    (database) => {
      const server = useTestServer({ database });
      let session: TestSession;
      let key: string;

      before(async () => {
        key = server.key;
        session = await openTestSession(name, database.url);
      });
      after(async () => {
        await session?.close();
      });

      test('killed while a user/add waits on a row lock: 503 database_unavailable, the process serves on', async () => {
        const email = `held.${Date.now()}@example.com`;
        await session.holdEmail(email);
        try {
          const pending = call(server.url, {
            method: 'POST',
            headers: { apikey: key },
            body: userBody({ email }),
          });
          const waiting = await waitFor(async () => {
            const ids = await session.otherSessions({ waitingForLock: true });
            return ids.length > 0 ? ids : undefined;
          });
          assert.ok(
            waiting,
            `the user/add never waited for the lock; the test proves nothing: ${await Promise.race([pending.then((r) => r.text), new Promise((r) => setTimeout(() => r('(no answer yet)'), 100))])}`,
          );
          await session.kill(await session.otherSessions());
          const reply = await pending;
          assert.equal(reply.status, 503, reply.text);
          assert.equal(reply.body?.code, 'database_unavailable');
        } finally {
          await session.release();
        }
        assert.ok(server.listening, server.output.join('\n'));
        const next = await call(server.url, { headers: { apikey: key }, body: topicBody(1) });
        assert.equal(next.status, 200, next.text);
        const added = await call(server.url, {
          method: 'POST',
          headers: { apikey: key },
          body: userBody({ email }),
        });
        assert.equal(added.status, 200, added.text);
      });

      test('idle pooled connections killed: the next requests get 200 or 503, never a 500', async () => {
        for (let round = 0; round < 3; round++) {
          // Fill the pool with a few connections, then end them all while they are idle.
          await Promise.all(
            Array.from({ length: 4 }, () =>
              call(server.url, { headers: { apikey: key }, body: topicBody(1) }),
            ),
          );
          await session.kill(await session.otherSessions());
          const replies = await Promise.all(
            Array.from({ length: 8 }, () =>
              call(server.url, { headers: { apikey: key }, body: topicBody(1) }),
            ),
          );
          for (const reply of replies) assert.ok([200, 503].includes(reply.status), reply.text);
        }
        assert.ok(server.listening);
        const back = await waitFor(async () => {
          const reply = await call(server.url, { headers: { apikey: key }, body: topicBody(1) });
          return reply.status === 200;
        });
        assert.ok(back);
      });
    },
  );
}
