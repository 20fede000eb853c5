import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { users } from '../../src/data/users/users.ts';
import { DATABASES, type TestDatabase } from '../helpers/databases.ts';
import { call, topicBody, userBody } from '../helpers/http.ts';
import { createKey, type StartedServer, startServer, withStore } from '../helpers/server.ts';
import { holdWriteLock } from '../helpers/sqlite-write-lock.ts';

const QUERY_TIMEOUT_MS = 1500;
/** A behavioural bound, not a speed target: far under the 5 s a blocked loop took, far over an answer on a busy machine. */
const PROMPT_MS = 1000;

async function timed<T>(work: () => Promise<T>): Promise<[T, number]> {
  const started = performance.now();
  const value = await work();
  return [value, performance.now() - started];
}

// Issue 14, item 7: a user/add waiting for another process's write lock on SQLite does not stop
// the event loop: /healthz and topic look-ups answer at once meanwhile.
for (const kind of DATABASES.filter((d) => d.name === 'sqlite')) {
  describe('SQLite write lock held by another process', () => {
    let database: TestDatabase;
    let server: StartedServer;
    let key: string;

    before(async () => {
      database = await kind.create();
      ({ key } = await createKey(database.url));
      server = await startServer({
        databaseUrl: database.url,
        env: { DESKGATE_DB_QUERY_TIMEOUT: String(QUERY_TIMEOUT_MS) },
      });
      // Records the key's last use now, so that look-ups during the lock have nothing to write.
      assert.equal(
        (await call(server.url, { headers: { apikey: key }, body: topicBody(1) })).status,
        200,
      );
    });
    after(async () => {
      await server?.stop();
      await database?.drop();
    });

    async function assertPromptWhileWaiting(): Promise<void> {
      for (let i = 0; i < 3; i++) {
        const [health, healthMs] = await timed(() => call(`${server.origin}/healthz`));
        assert.equal(health.status, 200);
        assert.ok(healthMs < PROMPT_MS, `/healthz took ${Math.round(healthMs)} ms`);
        const [topic, topicMs] = await timed(() =>
          call(server.url, { headers: { apikey: key }, body: topicBody(1) }),
        );
        assert.equal(topic.status, 200, topic.text);
        assert.ok(topicMs < PROMPT_MS, `topics/specific took ${Math.round(topicMs)} ms`);
      }
    }

    test('released within the timeout: look-ups stay prompt, then the user/add succeeds', async () => {
      const lock = await holdWriteLock(database.sqlitePath as string);
      let released = false;
      try {
        const pending = call(server.url, {
          method: 'POST',
          headers: { apikey: key },
          body: userBody(),
        });
        await new Promise((resolve) => setTimeout(resolve, 100));
        await assertPromptWhileWaiting();
        await lock.release();
        released = true;
        const reply = await pending;
        assert.equal(reply.status, 200, reply.text);
      } finally {
        if (!released) await lock.release();
      }
    });

    test('held past the timeout: 503 database_unavailable, look-ups prompt meanwhile, writes resume after', async () => {
      const lock = await holdWriteLock(database.sqlitePath as string);
      try {
        const pending = timed(() =>
          call(server.url, { method: 'POST', headers: { apikey: key }, body: userBody() }),
        );
        await new Promise((resolve) => setTimeout(resolve, 100));
        await assertPromptWhileWaiting();
        const [reply, ms] = await pending;
        assert.equal(reply.status, 503, reply.text);
        assert.equal(reply.body?.code, 'database_unavailable');
        assert.ok(ms >= QUERY_TIMEOUT_MS - 100, `gave up after ${Math.round(ms)} ms`);
      } finally {
        await lock.release();
      }
      const after = await call(server.url, {
        method: 'POST',
        headers: { apikey: key },
        body: userBody(),
      });
      assert.equal(after.status, 200, after.text);
    });

    test('held past the timeout: every user/add waiting for it gets 503 within about the timeout, none is written', async () => {
      const emails = Array.from({ length: 12 }, (_, n) => `behind.lock.${n}@example.com`);
      const lock = await holdWriteLock(database.sqlitePath as string);
      let replies: [Awaited<ReturnType<typeof call>>, number][];
      try {
        // Sent over a few hundred ms, so that most join the queue after the first began waiting.
        replies = await Promise.all(
          emails.map(async (email, n) => {
            await new Promise((resolve) => setTimeout(resolve, n * 25));
            return timed(() =>
              call(server.url, {
                method: 'POST',
                headers: { apikey: key },
                body: userBody({ email }),
              }),
            );
          }),
        );
      } finally {
        await lock.release();
      }
      for (const [reply, ms] of replies) {
        assert.equal(reply.status, 503, reply.text);
        assert.equal(reply.body?.code, 'database_unavailable');
        // Not a turn of the timeout each behind the one before.
        assert.ok(ms < QUERY_TIMEOUT_MS + PROMPT_MS, `gave up after ${Math.round(ms)} ms`);
      }
      await withStore(database.url, async (store) => {
        for (const email of emails)
          assert.equal(await store.data(users).findUserIdByEmail(email), undefined);
      });
    });
  });
}
