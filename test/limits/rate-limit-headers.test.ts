import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { describeWithDatabase, SQLITE } from '../helpers/each-database.ts';
import { call, topicBody } from '../helpers/http.ts';
import { useTestServer } from '../helpers/test-server.ts';

describeWithDatabase(
  'RateLimit-Policy and RateLimit (draft-ietf-httpapi-ratelimit-headers) beside X-RateLimit-*',
  SQLITE,
  (database) => {
    const server = useTestServer({ database, env: { DESKGATE_RATE_LIMIT: '3' } });
    let key: string;

    before(async () => {
      ({ key } = await server.createKey());
    });

    test('every answer to a valid key carries both forms, with the same numbers; Reset is seconds', async () => {
      for (let i = 1; i <= 3; i++) {
        const reply = await call(server.url, { headers: { apikey: key }, body: topicBody(1) });
        assert.equal(reply.status, 200, reply.text);
        assert.equal(reply.headers['ratelimit-policy'], '"per-key";q=3;w=60');
        const match = /^"per-key";r=(\d+);t=(\d+)$/.exec(String(reply.headers.ratelimit));
        assert.ok(match, String(reply.headers.ratelimit));
        assert.equal(Number(match[1]), 3 - i);
        assert.equal(reply.headers['x-ratelimit-remaining'], match[1]);
        assert.equal(reply.headers['x-ratelimit-reset'], match[2]);
        // Seconds until the window starts over, not an epoch time.
        const reset = Number(match[2]);
        assert.ok(reset >= 1 && reset <= 60, `reset ${reset}`);
      }
      const over = await call(server.url, { headers: { apikey: key }, body: topicBody(1) });
      assert.equal(over.status, 429);
      assert.equal(over.headers['ratelimit-policy'], '"per-key";q=3;w=60');
      const match = /^"per-key";r=0;t=(\d+)$/.exec(String(over.headers.ratelimit));
      assert.ok(match, String(over.headers.ratelimit));
      assert.equal(over.headers['retry-after'], match[1]);
    });
  },
);
