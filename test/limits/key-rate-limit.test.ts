import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { test } from 'node:test';
import { REDIS_URL } from '../helpers/databases.ts';
import { describeWithDatabase, SQLITE } from '../helpers/each-database.ts';
import { call, topicBody } from '../helpers/http.ts';
import { useTestServer } from '../helpers/test-server.ts';

interface Backend {
  name: string;
  /** Environment for one server; a Redis prefix of its own so key ids of other suites never collide. */
  env(): Record<string, string>;
  skip: string | false;
}

const backends: Backend[] = [
  { name: 'memory', env: () => ({}), skip: false },
  {
    name: 'redis',
    env: () => ({
      DESKGATE_REDIS_URL: REDIS_URL ?? '',
      DESKGATE_REDIS_PREFIX: `deskgate-test-${randomBytes(6).toString('hex')}`,
    }),
    skip: REDIS_URL ? false : 'skipped: DESKGATE_TEST_REDIS_URL is not set',
  },
];

for (const backend of backends) {
  describeWithDatabase(
    `per-key rate limit (${backend.name})`,
    SQLITE,
    (database) => {
      const server = useTestServer(() => ({
        database,
        env: { ...backend.env(), DESKGATE_RATE_LIMIT: '5' },
      }));

      test('each answer carries X-RateLimit-*; past the limit → 429 with Retry-After', async () => {
        const { key } = await server.createKey();
        const remaining: number[] = [];
        for (let i = 0; i < 5; i++) {
          const reply = await call(server.url, {
            headers: { apikey: key },
            body: topicBody(i === 2 ? 999 : 1),
          });
          assert.ok(reply.status === 200 || reply.status === 204);
          assert.equal(reply.headers['x-ratelimit-limit'], '5');
          assert.ok(Number(reply.headers['x-ratelimit-reset']) >= 1);
          remaining.push(Number(reply.headers['x-ratelimit-remaining']));
        }
        assert.deepEqual(remaining, [4, 3, 2, 1, 0]);
        const over = await call(server.url, { headers: { apikey: key }, body: topicBody(1) });
        assert.equal(over.status, 429);
        assert.equal(over.body?.code, 'too_many_requests');
        assert.ok(Number(over.headers['retry-after']) >= 1);
        assert.equal(over.headers['x-ratelimit-remaining'], '0');
      });

      test('keys are counted separately', async () => {
        const first = await server.createKey();
        const second = await server.createKey();
        for (let i = 0; i < 6; i++)
          await call(server.url, { headers: { apikey: first.key }, body: topicBody(1) });
        const other = await call(server.url, {
          headers: { apikey: second.key },
          body: topicBody(1),
        });
        assert.equal(other.status, 200);
      });

      test('requests without a valid key are not counted against any key', async () => {
        const reply = await call(server.url, {
          headers: { apikey: 'ABCDEF0123456789ABCDEF0123456789' },
          body: topicBody(1),
        });
        assert.equal(reply.status, 401);
        assert.equal(reply.headers['x-ratelimit-limit'], undefined);
      });
    },
    { skip: backend.skip },
  );
}
