import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { describe, test } from 'node:test';
import { runCli } from '../helpers/cli.ts';
import { DATABASES, REDIS_URL } from '../helpers/databases.ts';
import { useDatabase } from '../helpers/each-database.ts';
import { call, topicBody, userBody } from '../helpers/http.ts';
import { useTestServer } from '../helpers/test-server.ts';

const postgres = DATABASES.find((d) => d.name === 'postgres');
const skip = !postgres
  ? 'skipped: DESKGATE_TEST_POSTGRES_URL is not set'
  : !REDIS_URL
    ? 'skipped: DESKGATE_TEST_REDIS_URL is not set'
    : false;

/**
 * The two instances run in this process, but share nothing in it: each has its own store, key
 * cache and Redis client, so whatever one sees of the other went through PostgreSQL or Redis.
 */
describe('two instances on one PostgreSQL database, limits shared through Redis', { skip }, () => {
  if (!postgres) return;
  const { database, drop } = useDatabase(postgres);
  const env = {
    DESKGATE_REDIS_URL: REDIS_URL ?? '',
    DESKGATE_REDIS_PREFIX: `deskgate-test-${randomBytes(6).toString('hex')}`,
    DESKGATE_RATE_LIMIT: '6',
    DESKGATE_AUTH_FAILURE_LIMIT: '2',
  };
  const first = useTestServer({ database, env });
  const second = useTestServer({ database, env });

  test('a user created through one instance is there for the other and for the CLI', async () => {
    const { key } = await first.createKey();
    const email = `shared.${Date.now()}@example.com`;
    const created = await call(first.url, {
      method: 'POST',
      headers: { apikey: key },
      body: userBody({ email }),
    });
    assert.equal(created.status, 200);
    const again = await call(second.url, {
      method: 'POST',
      headers: { apikey: key },
      body: userBody({ email }),
    });
    assert.equal(again.status, 409);
    assert.equal(again.body?.existing_id, created.body?.data);
    const shown = await runCli([
      'users',
      'get',
      String(created.body?.data),
      '--json',
      '--database',
      database.url,
    ]);
    assert.equal(shown.code, 0, shown.stderr);
    assert.equal((JSON.parse(shown.stdout) as { email: string }).email, email);
  });

  test("one key's limit holds across both instances", async () => {
    const { key } = await first.createKey();
    const statuses: number[] = [];
    for (let i = 0; i < 8; i++) {
      const server = i % 2 === 0 ? first : second;
      statuses.push(
        (await call(server.url, { headers: { apikey: key }, body: topicBody(1) })).status,
      );
    }
    assert.deepEqual(statuses, [200, 200, 200, 200, 200, 200, 429, 429]);
  });

  test('failed authentications from one address count on both instances', async () => {
    const wrong = { apikey: 'ABCDEF0123456789ABCDEF0123456789' };
    assert.equal((await call(first.url, { headers: wrong, body: topicBody(1) })).status, 401);
    assert.equal((await call(first.url, { headers: wrong, body: topicBody(1) })).status, 401);
    const blocked = await call(second.url, { headers: wrong, body: topicBody(1) });
    assert.equal(blocked.status, 429);
    assert.ok(Number(blocked.headers['retry-after']) >= 1);
  });
  drop();
});
