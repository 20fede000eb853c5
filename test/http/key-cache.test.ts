import assert from 'node:assert/strict';
import { test } from 'node:test';
import { apiKeys } from '../../src/data/api-keys/api-keys.ts';
import { describeEachDatabase } from '../helpers/each-database.ts';
import { call, topicBody } from '../helpers/http.ts';
import { withStore } from '../helpers/server.ts';
import { useTestServer } from '../helpers/test-server.ts';

async function revoke(databaseUrl: string, id: number): Promise<void> {
  await withStore(databaseUrl, async (store) => {
    assert.equal(await store.data(apiKeys).revokeApiKey(id), true);
  });
}

describeEachDatabase('verified-key cache', (database) => {
  const longCache = useTestServer({ database, env: { DESKGATE_KEY_CACHE_TTL: '600000' } });
  const shortCache = useTestServer({ database, env: { DESKGATE_KEY_CACHE_TTL: '300' } });

  test('a verified key is served from the cache: a revocation is not seen until it expires', async () => {
    const { id, key } = await longCache.createKey();
    assert.equal(
      (await call(longCache.url, { headers: { apikey: key }, body: topicBody(1) })).status,
      200,
    );
    await revoke(database.url, id);
    const cached = await call(longCache.url, { headers: { apikey: key }, body: topicBody(1) });
    assert.equal(cached.status, 200, 'within the TTL the cached verification stands');
  });

  test('a revoked key stops working once the TTL has passed', async () => {
    const { id, key } = await longCache.createKey();
    assert.equal(
      (await call(shortCache.url, { headers: { apikey: key }, body: topicBody(1) })).status,
      200,
    );
    await revoke(database.url, id);
    let status = 0;
    for (let attempt = 0; attempt < 100 && status !== 401; attempt++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      status = (await call(shortCache.url, { headers: { apikey: key }, body: topicBody(1) }))
        .status;
    }
    assert.equal(status, 401);
  });

  test('an unknown key is never cached as valid', async () => {
    const reply = await call(longCache.url, {
      headers: { apikey: 'ABCDEF0123456789ABCDEF0123456789' },
      body: topicBody(1),
    });
    assert.equal(reply.status, 401);
  });
});
