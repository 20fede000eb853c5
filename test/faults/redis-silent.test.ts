import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { createClient } from 'redis';
import { DATABASES, REDIS_URL, type TestDatabase } from '../helpers/databases.ts';
import { describeWithDatabase, SQLITE } from '../helpers/each-database.ts';
import { type FreezableProxy, startFreezableProxy } from '../helpers/freezable-proxy.ts';
import { call, topicBody } from '../helpers/http.ts';
import { type StartedServer, startServer } from '../helpers/server.ts';
import { useTestServer } from '../helpers/test-server.ts';

const sqlite = DATABASES.find((d) => d.name === 'sqlite');
const skip = REDIS_URL ? false : 'skipped: DESKGATE_TEST_REDIS_URL is not set';

/** Fails instead of waiting when the server holds a request: a hang detector, not a speed test. */
async function answered<T>(request: Promise<T>, what: string): Promise<T> {
  const hung = sleep(10_000).then(() => {
    throw new Error(`${what}: no answer within 10 s`);
  });
  return Promise.race([request, hung]);
}

async function metric(origin: string, name: string): Promise<number | undefined> {
  const text = await (await fetch(`${origin}/metrics`)).text();
  const line = text.split('\n').find((l) => l.startsWith(`${name} `) || l.startsWith(`${name}{`));
  return line === undefined ? undefined : Number(line.split(' ').at(-1));
}

async function until(what: string, check: () => Promise<boolean>): Promise<void> {
  for (let i = 0; i < 200; i++) {
    if (await check()) return;
    await sleep(100);
  }
  throw new Error(`timed out waiting for ${what}`);
}

function countLines(server: { readonly output: string[] }, text: string): number {
  return server.output.filter((l) => l.includes(text)).length;
}

const OUTAGE = 'Redis is unreachable or not answering';
const BACK = 'Redis answers again';

/** The server's settings for a Redis behind `proxy`, which it believes up once it answers. */
function silentRedisEnv(proxy: FreezableProxy, prefix: string): Record<string, string> {
  const redis = new URL(REDIS_URL as string);
  redis.hostname = '127.0.0.1';
  redis.port = String(proxy.port);
  return {
    DESKGATE_REDIS_URL: redis.toString(),
    DESKGATE_REDIS_PREFIX: prefix,
    // Generous for a loaded machine; the test shows that calls are bounded, not how tightly.
    DESKGATE_REDIS_TIMEOUT: '500',
    DESKGATE_RATE_LIMIT: '1000',
    DESKGATE_AUTH_FAILURE_LIMIT: '3',
    DESKGATE_AUTH_FAILURE_WINDOW: '600',
    DESKGATE_SHUTDOWN_TIMEOUT: '3000',
  };
}

async function startRedisProxy(): Promise<FreezableProxy> {
  const redis = new URL(REDIS_URL as string);
  return startFreezableProxy(redis.hostname, Number(redis.port || 6379));
}

describeWithDatabase(
  'a Redis that accepts connections but never answers',
  SQLITE,
  (database) => {
    let proxy: FreezableProxy;
    let key: { id: number; key: string };
    const prefix = `deskgate-test-${randomBytes(6).toString('hex')}`;

    before(async () => {
      proxy = await startRedisProxy();
    });
    const server = useTestServer(() => ({ database, env: silentRedisEnv(proxy, prefix) }));
    before(async () => {
      key = { id: server.keyId, key: server.key };
      await until('Redis up', async () => (await metric(server.origin, 'deskgate_redis_up')) === 1);
    });
    after(async () => {
      await proxy?.close();
    });

    test('requests are answered from memory counters; the outage is logged once and visible in /metrics', async () => {
      const first = await call(server.url, { headers: { apikey: key.key }, body: topicBody(1) });
      assert.equal(first.status, 200, first.text);
      assert.match(String(first.headers.ratelimit), /^"per-key";r=999;t=\d+$/);
      const fallbacksBefore =
        (await metric(server.origin, 'deskgate_rate_limit_fallback_total')) ?? 0;
      const outagesBefore = countLines(server, OUTAGE);

      proxy.freeze();
      const replies = await answered(
        Promise.all(
          Array.from({ length: 20 }, () =>
            call(server.url, { headers: { apikey: key.key }, body: topicBody(1) }),
          ),
        ),
        '20 concurrent requests while Redis is silent',
      );
      for (const reply of replies) {
        assert.equal(reply.status, 200, reply.text);
        assert.ok(reply.headers['x-ratelimit-remaining'], 'still limited, in memory');
      }
      for (let i = 0; i < 5; i++) {
        const reply = await answered(
          call(server.url, { headers: { apikey: key.key }, body: topicBody(1) }),
          'a request while Redis is silent',
        );
        assert.equal(reply.status, 200, reply.text);
      }
      // The failed-auth limit keeps working, counted in memory.
      const statuses: number[] = [];
      for (let i = 0; i < 4; i++) {
        const reply = await answered(
          call(server.url, { headers: { apikey: 'A'.repeat(32) }, body: topicBody(1) }),
          'a wrong key while Redis is silent',
        );
        statuses.push(reply.status);
      }
      assert.deepEqual(statuses, [401, 401, 401, 429]);

      assert.equal(await metric(server.origin, 'deskgate_redis_up'), 0);
      const fallbacks = (await metric(server.origin, 'deskgate_rate_limit_fallback_total')) ?? 0;
      assert.ok(
        fallbacks - fallbacksBefore >= 29,
        `${fallbacks - fallbacksBefore} counted in memory`,
      );
      // The log line travels through a pipe: wait for it, then check there is only one.
      await until('the outage log line', async () => countLines(server, OUTAGE) > outagesBefore);
      assert.equal(
        countLines(server, OUTAGE),
        outagesBefore + 1,
        'one log line for the outage, not one per request',
      );
    });

    test('when Redis answers again the counts are shared again', async () => {
      proxy.thaw();
      await until(
        'Redis up again',
        async () => (await metric(server.origin, 'deskgate_redis_up')) === 1,
      );
      await until('the recovery log line', async () => countLines(server, BACK) >= 1);
      // The next request counts in Redis again.
      const direct = createClient({ url: REDIS_URL as string });
      await direct.connect();
      try {
        const counted = async () => Number((await direct.get(`${prefix}:key-rate:${key.id}`)) ?? 0);
        const before = await counted();
        const reply = await call(server.url, { headers: { apikey: key.key }, body: topicBody(1) });
        assert.equal(reply.status, 200, reply.text);
        assert.equal(await counted(), before + 1);
      } finally {
        direct.destroy();
      }
    });
  },
  { skip },
);

// The subject is the process: it must exit, with 0, on SIGTERM (no Redis timer keeping it alive).
describe('SIGTERM while Redis is silent', { skip }, () => {
  let database: TestDatabase;
  let proxy: FreezableProxy;
  let server: StartedServer;

  before(async () => {
    proxy = await startRedisProxy();
    database = await (sqlite as NonNullable<typeof sqlite>).create();
    server = await startServer({
      databaseUrl: database.url,
      env: silentRedisEnv(proxy, `deskgate-test-${randomBytes(6).toString('hex')}`),
    });
    await until('Redis up', async () => (await metric(server.origin, 'deskgate_redis_up')) === 1);
  });
  after(async () => {
    await server?.stop();
    await proxy?.close();
    await database?.drop();
  });

  test('the server still stops, in bounded time', async () => {
    // Frozen while the server still believes Redis is up: closing the client must not wait on it.
    proxy.freeze();
    const exited = server.stop();
    const code = await Promise.race([
      exited,
      sleep(10_000).then(() => {
        throw new Error('still running 10 s after SIGTERM');
      }),
    ]);
    assert.equal(code, 0, server.output.slice(-5).join('\n'));
  });
});

describeWithDatabase(
  'a Redis that refuses connections',
  SQLITE,
  (database) => {
    const server = useTestServer({
      database,
      // Nothing listens on port 1: refused at once.
      env: { DESKGATE_REDIS_URL: 'redis://127.0.0.1:1', DESKGATE_RATE_LIMIT: '2' },
    });
    let key: string;
    before(() => {
      key = server.key;
    });

    test('limits count in memory, logged once; /metrics says Redis is down', async () => {
      const statuses: number[] = [];
      for (let i = 0; i < 3; i++) {
        statuses.push(
          (await call(server.url, { headers: { apikey: key }, body: topicBody(1) })).status,
        );
      }
      assert.deepEqual(statuses, [200, 200, 429]);
      await until('the outage log line', async () => countLines(server, OUTAGE) >= 1);
      await sleep(2_500); // two probes fail meanwhile: still one log line
      assert.equal(countLines(server, OUTAGE), 1);
      assert.equal(await metric(server.origin, 'deskgate_redis_up'), 0);
    });
  },
  { skip },
);
