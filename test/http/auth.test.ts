import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { apiKeys } from '../../src/data/api-keys/api-keys.ts';
import { assertError } from '../helpers/assertions.ts';
import { describeEachDatabase, describeWithDatabase, SQLITE } from '../helpers/each-database.ts';
import { call, type Reply, topicBody, userBody } from '../helpers/http.ts';
import { withStore } from '../helpers/server.ts';
import { useTestServer } from '../helpers/test-server.ts';
import { rawExchange, requestHead } from './raw-exchange.ts';

/** A well-formed key (32 uppercase hex) that was never issued. */
function unknownKey(): string {
  return Array.from({ length: 32 }, () => '0123456789ABCDEF'[Math.floor(Math.random() * 16)]).join(
    '',
  );
}

describeEachDatabase('authentication', (database) => {
  // Many bad keys come from 127.0.0.1 in this file: keep the failed-auth limit out of the way.
  const server = useTestServer({
    database,
    env: { DESKGATE_AUTH_FAILURE_LIMIT: '10000' },
  });
  let key: string;
  let readKey: string;
  let writeKey: string;
  before(async () => {
    ({ key } = await server.createKey({ scopes: ['read', 'write'] }));
    ({ key: readKey } = await server.createKey({ scopes: ['read'] }));
    ({ key: writeKey } = await server.createKey({ scopes: ['write'] }));
  });

  test('a valid key is accepted', async () => {
    const reply = await call(server.url, { headers: { apikey: key }, body: topicBody(1) });
    assert.equal(reply.status, 200, reply.text);
  });

  test('no apikey header → 401 missing_api_key', async () => {
    assertError(await call(server.url, { body: topicBody(1) }), 401, 'missing_api_key');
    assertError(
      await call(server.url, { method: 'POST', body: userBody() }),
      401,
      'missing_api_key',
    );
  });

  test('an empty or blank apikey header → 401 missing_api_key', async () => {
    for (const value of ['', ' ', '   ']) {
      const reply = await call(server.url, { headers: { apikey: value }, body: topicBody(1) });
      assertError(reply, 401, 'missing_api_key');
    }
  });

  test('an unknown key → 401 invalid_api_key', async () => {
    const reply = await call(server.url, {
      headers: { apikey: unknownKey() },
      body: topicBody(1),
    });
    assertError(reply, 401, 'invalid_api_key');
  });

  test('a malformed key (not 32 hex characters) → 401 invalid_api_key', async () => {
    const malformed = [
      key.slice(0, 31),
      `${key}0`,
      `${key.slice(0, 31)}G`,
      'not a key',
      'x'.repeat(500),
      `${key.slice(0, 16)}-${key.slice(16, 31)}`,
    ];
    for (const value of malformed) {
      const reply = await call(server.url, { headers: { apikey: value }, body: topicBody(1) });
      assertError(reply, 401, 'invalid_api_key');
    }
  });

  test('a revoked key → 401 invalid_api_key', async () => {
    const revoked = await server.createKey({ name: 'to-revoke' });
    const before = await call(server.url, {
      headers: { apikey: revoked.key },
      body: topicBody(1),
    });
    assert.equal(before.status, 200, before.text);
    assert.equal(
      await withStore(database.url, (store) => store.data(apiKeys).revokeApiKey(revoked.id)),
      true,
    );
    const reply = await call(server.url, {
      headers: { apikey: revoked.key },
      body: topicBody(1),
    });
    assertError(reply, 401, 'invalid_api_key');
  });

  test('unknown, malformed and revoked keys get the same answer', async () => {
    const revoked = await server.createKey({ name: 'revoked-for-comparison' });
    await withStore(database.url, (store) => store.data(apiKeys).revokeApiKey(revoked.id));
    const replies: Reply[] = [];
    for (const value of [unknownKey(), unknownKey().toLowerCase(), 'short', revoked.key]) {
      replies.push(await call(server.url, { headers: { apikey: value }, body: topicBody(1) }));
    }
    for (const reply of replies) assertError(reply, 401, 'invalid_api_key');
    const [first, ...rest] = replies.map((r) => ({
      data: r.body?.data,
      code: r.body?.code,
      keys: Object.keys(r.body ?? {}),
      wwwAuthenticate: r.headers['www-authenticate'],
    }));
    for (const other of rest) assert.deepEqual(other, first);
  });

  test('the key itself is compared case-insensitively (SPEC §4: clients send it in lower case)', async () => {
    for (const value of [key.toLowerCase(), ` ${key.toLowerCase()} `]) {
      const reply = await call(server.url, { headers: { apikey: value }, body: topicBody(1) });
      assert.equal(reply.status, 200, reply.text);
    }
  });

  test('the header name is case-insensitive', async () => {
    for (const name of ['apikey', 'APIKEY', 'ApiKey', 'apiKey']) {
      const reply = await call(server.url, { headers: { [name]: key }, body: topicBody(1) });
      assert.equal(reply.status, 200, `${name}: ${reply.text}`);
    }
  });

  test('the key is checked before the body', async () => {
    assertError(await call(server.url, { body: '{"query":' }), 401, 'missing_api_key');
    assertError(
      await call(server.url, { headers: { apikey: unknownKey() }, body: '{"query":' }),
      401,
      'invalid_api_key',
    );
    assertError(await call(server.url, { body: '[1, 2]' }), 401, 'missing_api_key');
    assertError(
      await call(server.url, {
        headers: { 'Content-Type': 'multipart/form-data; boundary=x' },
        body: '--x--',
      }),
      401,
      'missing_api_key',
    );
    assertError(
      await call(server.url, { method: 'POST', body: topicBody(1) }),
      401,
      'missing_api_key',
    );
    assertError(
      await call(server.url, { body: { query: 'no', condition: 'such' } }),
      401,
      'missing_api_key',
    );
  });

  test('without a key, a huge declared body is refused with 401 before it is sent', async () => {
    const reply = await rawExchange({
      port: server.port,
      parts: [requestHead('GET', '/upload/svc_wbs/', { 'Content-Length': 10_000_000 })],
    });
    assert.equal(reply.status, 401, reply.text);
    assert.equal((JSON.parse(reply.text) as { code: string }).code, 'missing_api_key');
  });

  test('a key without the write scope → 403 insufficient_scope on user/add', async () => {
    const reply = await call(server.url, {
      method: 'POST',
      headers: { apikey: readKey },
      body: userBody(),
    });
    assertError(reply, 403, 'insufficient_scope');
    const allowed = await call(server.url, { headers: { apikey: readKey }, body: topicBody(1) });
    assert.equal(allowed.status, 200, allowed.text);
  });

  test('a key without the read scope → 403 insufficient_scope on topics/specific', async () => {
    const reply = await call(server.url, { headers: { apikey: writeKey }, body: topicBody(1) });
    assertError(reply, 403, 'insufficient_scope');
    const allowed = await call(server.url, {
      method: 'POST',
      headers: { apikey: writeKey },
      body: userBody(),
    });
    assert.equal(allowed.status, 200, allowed.text);
  });

  test('a missing scope is refused even when the topic does not exist', async () => {
    const reply = await call(server.url, { headers: { apikey: writeKey }, body: topicBody(999) });
    assertError(reply, 403, 'insufficient_scope');
  });
});

describeWithDatabase('failed-auth rate limit', SQLITE, (database) => {
  const server = useTestServer({
    database,
    env: { DESKGATE_AUTH_FAILURE_LIMIT: '3', DESKGATE_AUTH_FAILURE_WINDOW: '600' },
  });
  let key: string;
  before(async () => {
    key = server.key;
  });

  test('after 3 invalid keys from one address the next request → 429 with Retry-After', async () => {
    // A missing key is not a guess and does not count.
    for (let i = 0; i < 5; i++) {
      assertError(await call(server.url, { body: topicBody(1) }), 401, 'missing_api_key');
    }
    for (let i = 0; i < 3; i++) {
      const reply = await call(server.url, {
        headers: { apikey: unknownKey() },
        body: topicBody(1),
      });
      assertError(reply, 401, 'invalid_api_key');
    }
    const blocked = await call(server.url, {
      headers: { apikey: unknownKey() },
      body: topicBody(1),
    });
    assertError(blocked, 429, 'too_many_requests');
    assert.equal(blocked.headers['content-type'], 'application/json; charset=utf-8');
    const retryAfter = Number(blocked.headers['retry-after']);
    assert.ok(
      Number.isInteger(retryAfter) && retryAfter >= 1 && retryAfter <= 600,
      `Retry-After ${blocked.headers['retry-after']}`,
    );

    // The block stops guessing, not callers with a valid key (SPEC §4: one NAT, many callers).
    const valid = await call(server.url, { headers: { apikey: key }, body: topicBody(1) });
    assert.equal(valid.status, 200, valid.text);
  });
});

describeWithDatabase('failed-auth rate limit per client address', SQLITE, (database) => {
  const server = useTestServer({
    database,
    env: {
      DESKGATE_AUTH_FAILURE_LIMIT: '3',
      DESKGATE_AUTH_FAILURE_WINDOW: '600',
      DESKGATE_TRUST_PROXY: 'loopback',
    },
  });
  let key: string;
  before(async () => {
    key = server.key;
    // Behind a trusted proxy, X-Forwarded-For tells the clients apart.
  });

  test('one address used up its failures; another address is still served', async () => {
    const guesser = { 'X-Forwarded-For': '198.51.100.7' };
    for (let i = 0; i < 3; i++) {
      const reply = await call(server.url, {
        headers: { ...guesser, apikey: unknownKey() },
        body: topicBody(1),
      });
      assertError(reply, 401, 'invalid_api_key');
    }
    assertError(
      await call(server.url, {
        headers: { ...guesser, apikey: unknownKey() },
        body: topicBody(1),
      }),
      429,
      'too_many_requests',
    );
    const other = await call(server.url, {
      headers: { 'X-Forwarded-For': '198.51.100.8', apikey: key },
      body: topicBody(1),
    });
    assert.equal(other.status, 200, other.text);
  });
});
