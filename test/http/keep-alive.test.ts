import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { describeWithDatabase, SQLITE } from '../helpers/each-database.ts';
import { type CallOptions, call, keepAliveAgent, type Reply, topicBody } from '../helpers/http.ts';
import { useTestServer } from '../helpers/test-server.ts';

// Node's client frames a GET body only when Transfer-Encoding is asked for explicitly.
const CHUNKED = { 'Transfer-Encoding': 'chunked' };

function topicName(reply: Reply): unknown {
  return (reply.body?.data as { topic?: { topic?: unknown } } | undefined)?.topic?.topic;
}

describeWithDatabase('keep-alive connections', SQLITE, (database) => {
  const server = useTestServer({ database });
  let key: string;
  before(async () => {
    key = server.key;
  });

  /** Sends `first`, then a topic lookup, over one kept-alive connection; returns both replies. */
  async function thenLookup(
    first: CallOptions & { url?: string },
    chunked = false,
  ): Promise<[Reply, Reply]> {
    const agent = keepAliveAgent();
    try {
      const one = await call(first.url ?? server.url, { ...first, agent });
      const two = await call(server.url, {
        headers: { apikey: key, ...(chunked ? CHUNKED : {}) },
        body: topicBody(11),
        chunked,
        agent,
      });
      assert.equal(one.reusedSocket, false);
      assert.equal(two.reusedSocket, true, 'the second request reused the connection');
      assert.equal(two.status, 200, two.text);
      assert.equal(two.body?.status, 'Success');
      assert.equal(topicName(two), 'Access Issue');
      return [one, two];
    } finally {
      agent.destroy();
    }
  }

  test('a 204 then a 200 on the same connection', async () => {
    const [first] = await thenLookup({ headers: { apikey: key }, body: topicBody(999) });
    assert.equal(first.status, 204);
    assert.equal(first.text, '');
  });

  test('a chunked 204 then a chunked 200 on the same connection', async () => {
    const [first] = await thenLookup(
      { headers: { apikey: key, ...CHUNKED }, body: topicBody(999), chunked: true },
      true,
    );
    assert.equal(first.status, 204);
    assert.equal(first.text, '');
  });

  test('a 400 then a 200 on the same connection', async () => {
    const [first] = await thenLookup({ headers: { apikey: key }, body: '{"query":' });
    assert.equal(first.status, 400);
    assert.equal(first.body?.code, 'invalid_json');
  });

  test('a 400 for bad parameters then a 200 on the same connection', async () => {
    const [first] = await thenLookup({ headers: { apikey: key }, body: topicBody('abc') });
    assert.equal(first.status, 400);
    assert.equal(first.body?.code, 'invalid_parameters');
  });

  test('a 401 whose body was never read, then a 200 on the same connection', async () => {
    const [first] = await thenLookup({ body: topicBody(1) });
    assert.equal(first.status, 401);
    assert.equal(first.body?.code, 'missing_api_key');
  });

  test('a 405 then a 200 on the same connection', async () => {
    const [first] = await thenLookup({
      method: 'POST',
      headers: { apikey: key },
      body: topicBody(1),
    });
    assert.equal(first.status, 405);
    assert.equal(first.body?.code, 'method_not_allowed');
  });

  test('a 404 for another path with a body, then a 200 on the same connection', async () => {
    const [first] = await thenLookup({
      url: `${server.origin}/elsewhere`,
      headers: { apikey: key },
      body: topicBody(1),
    });
    assert.equal(first.status, 404);
    assert.equal(first.body?.code, 'not_found');
  });

  test('many lookups in a row share one connection and each gets its own answer', async () => {
    const agent = keepAliveAgent();
    try {
      const expected: [number, number, string | undefined][] = [
        [1, 200, 'General Inquiry'],
        [999, 204, undefined],
        [11, 200, 'Access Issue'],
        [998, 204, undefined],
        [2, 200, 'Feedback'],
      ];
      for (const [index, [id, status, name]] of expected.entries()) {
        const chunked = index % 2 === 1;
        const reply = await call(server.url, {
          headers: { apikey: key, ...(chunked ? CHUNKED : {}) },
          body: topicBody(id),
          chunked,
          agent,
        });
        assert.equal(reply.status, status, `request ${index}: ${reply.text}`);
        assert.equal(reply.reusedSocket, index > 0);
        if (name) assert.equal(topicName(reply), name);
      }
    } finally {
      agent.destroy();
    }
  });
});
