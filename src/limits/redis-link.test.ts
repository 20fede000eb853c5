import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createClient } from 'redis';
import { REDIS_URL } from '../../test/helpers/databases.ts';
import { withTimeout } from './redis-link.ts';

/** Keeps the process busy, as hundreds of requests at once do on a small machine. */
function busyFor(ms: number): void {
  const end = performance.now() + ms;
  while (performance.now() < end) {}
}

describe('withTimeout against a real Redis', {
  skip: REDIS_URL ? false : 'skipped: DESKGATE_TEST_REDIS_URL is not set',
}, () => {
  const client = createClient({ url: REDIS_URL });
  before(() => client.connect());
  after(() => client.close());

  test('a reply that came in time wins over a timer the busy process ran late', async () => {
    for (let i = 0; i < 5; i++) {
      const ping = withTimeout(client.ping(), 20);
      // node-redis writes the command in the loop's next check phase; the busy stretch follows
      // it there, so Redis's reply (within a millisecond) waits to be read until the timer ran.
      await new Promise((resolve) => setImmediate(resolve));
      busyFor(80);
      assert.equal(await ping, 'PONG');
    }
  });

  test('a call that gets no answer still fails after the timeout', async () => {
    const never = new Promise<never>(() => {});
    await assert.rejects(withTimeout(never, 20), { name: 'RedisTimeoutError' });
  });
});
