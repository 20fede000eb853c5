import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { apiKeys } from '../../src/data/api-keys/api-keys.ts';
import { DATABASES, REDIS_URL, type TestDatabase } from '../helpers/databases.ts';
import { call, type Reply, topicBody } from '../helpers/http.ts';
import { createKey, type StartedServer, startServer, withStore } from '../helpers/server.ts';

const LIMIT = 10;

/** A well-formed key (32 uppercase hex) that was never issued. */
function unknownKey(): string {
  return randomBytes(16).toString('hex').toUpperCase();
}

const backends = [
  { name: 'memory', env: (): Record<string, string> => ({}), skip: false as const },
  {
    name: 'redis',
    env: (): Record<string, string> => ({
      DESKGATE_REDIS_URL: REDIS_URL ?? '',
      DESKGATE_REDIS_PREFIX: `deskgate-test-${randomBytes(6).toString('hex')}`,
    }),
    skip: REDIS_URL ? (false as const) : 'skipped: DESKGATE_TEST_REDIS_URL is not set',
  },
];

for (const kind of DATABASES.filter((d) => d.name !== 'mysql')) {
  for (const backend of backends) {
    describe(`failed-auth limit under concurrency (${backend.name}) on ${kind.name}`, {
      skip: backend.skip,
    }, () => {
      let database: TestDatabase;
      let server: StartedServer;
      let key: string;
      let revoked: string;

      before(async () => {
        database = await kind.create();
        ({ key } = await createKey(database.url));
        const toRevoke = await createKey(database.url);
        await withStore(database.url, (store) => store.data(apiKeys).revokeApiKey(toRevoke.id));
        revoked = toRevoke.key;
        server = await startServer({
          databaseUrl: database.url,
          env: {
            ...backend.env(),
            DESKGATE_AUTH_FAILURE_LIMIT: String(LIMIT),
            DESKGATE_AUTH_FAILURE_WINDOW: '600',
            DESKGATE_TRUST_PROXY: 'loopback',
          },
        });
      });
      after(async () => {
        await server?.stop();
        await database?.drop();
      });

      test(`300 concurrent wrong keys from one address: ${LIMIT} answers of 401, the rest 429`, async () => {
        const from = { 'X-Forwarded-For': '198.51.100.20' };
        const replies = await Promise.all(
          Array.from({ length: 300 }, () =>
            call(server.url, { headers: { ...from, apikey: unknownKey() }, body: topicBody(1) }),
          ),
        );
        const statuses = replies.map((r) => r.status);
        assert.equal(statuses.filter((s) => s === 401).length, LIMIT);
        assert.equal(statuses.filter((s) => s === 429).length, 300 - LIMIT);
        const blocked = replies.find((r) => r.status === 429) as Reply;
        assert.equal(blocked.body?.code, 'too_many_requests');
        assert.ok(Number(blocked.headers['retry-after']) >= 1);
        assert.match(String(blocked.headers['ratelimit-policy']), /^"failed-auth";q=10;w=600$/);
        assert.match(String(blocked.headers.ratelimit), /^"failed-auth";r=0;t=\d+$/);
      });

      test('a blocked address: a valid key is served, every wrong key gets one and the same 429', async () => {
        const from = { 'X-Forwarded-For': '198.51.100.21' };
        for (let i = 0; i < LIMIT; i++) {
          const reply = await call(server.url, {
            headers: { ...from, apikey: unknownKey() },
            body: topicBody(1),
          });
          assert.equal(reply.status, 401);
        }
        // Someone else behind the same NAT, with a valid key.
        const valid = await call(server.url, {
          headers: { ...from, apikey: key },
          body: topicBody(1),
        });
        assert.equal(valid.status, 200, valid.text);
        // Unknown (also in lower case), malformed and revoked keys: nothing tells them apart.
        const wrong = [unknownKey(), 'short', unknownKey().toLowerCase(), revoked];
        const answers: unknown[] = [];
        for (const apikey of wrong) {
          const reply = await call(server.url, {
            headers: { ...from, apikey },
            body: topicBody(1),
          });
          assert.equal(reply.status, 429, `${apikey}: ${reply.text}`);
          answers.push({
            data: reply.body?.data,
            code: reply.body?.code,
            fields: Object.keys(reply.body ?? {}).sort(),
            headers: Object.keys(reply.headers)
              .filter((h) => !['date', 'x-request-id', 'retry-after', 'ratelimit'].includes(h))
              .sort(),
          });
        }
        for (const answer of answers.slice(1)) assert.deepEqual(answer, answers[0]);
        // A request without any key is no guess: still the plain 401.
        const none = await call(server.url, { headers: from, body: topicBody(1) });
        assert.equal(none.status, 401);
        assert.equal(none.body?.code, 'missing_api_key');
        // Another address is not affected.
        const other = await call(server.url, {
          headers: { 'X-Forwarded-For': '198.51.100.22', apikey: unknownKey() },
          body: topicBody(1),
        });
        assert.equal(other.status, 401);
      });
    });
  }
}
