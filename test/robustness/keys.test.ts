import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { runCliJson } from '../cli/cli-assertions.ts';
import { describeEachDatabase } from '../helpers/each-database.ts';
import { call, keepAliveAgent, topicBody } from '../helpers/http.ts';
import { useTestServer } from '../helpers/test-server.ts';
import { assertCleanLog, LONG } from './robustness-support.ts';

/**
 * Keys under attack: a revoked key stops working within the documented bound (the key-cache TTL)
 * even while it is used without pause; a guess that matches a real key in its first characters
 * takes no measurably different time from one that does not; no key reaches the log.
 */

/** The README's default DESKGATE_KEY_CACHE_TTL. */
const DOCUMENTED_TTL_MS = 2_000;
/** Requests per group in the timing test. */
const SAMPLES = LONG ? 3_000 : 400;

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] as number;
}

/** `key` with the character at `index` replaced by another hex digit. */
function changeAt(key: string, index: number): string {
  const other = key[index] === 'A' ? 'B' : 'A';
  return `${key.slice(0, index)}${other}${key.slice(index + 1)}`;
}

describeEachDatabase('API keys under attack', (database) => {
  const server = useTestServer({
    database,
    env: {
      DESKGATE_KEY_CACHE_TTL: String(DOCUMENTED_TTL_MS),
      DESKGATE_AUTH_FAILURE_LIMIT: '100000000',
      DESKGATE_RATE_LIMIT: '0',
    },
  });
  const secrets: string[] = [];
  before(async () => {
    secrets.push(server.key);
  });

  test('a revoked key in constant use stops working within DESKGATE_KEY_CACHE_TTL', {
    timeout: 30_000,
  }, async () => {
    const { id, key } = await server.createKey();
    secrets.push(key);
    const agent = keepAliveAgent();
    try {
      let revokedAt: number | undefined;
      let refusedAt: number | undefined;
      const revoking = runCliJson(['keys', 'revoke', String(id), '--database', database.url]).then(
        () => {
          revokedAt = performance.now();
        },
      );
      // Use the key without pause, so the cache is as warm as it can be when the revocation lands.
      while (refusedAt === undefined) {
        const reply = await call(server.url, {
          headers: { apikey: key },
          body: topicBody(1),
          agent,
        });
        if (reply.status === 401) {
          // The key stops working at the revocation's commit, which may come a little before the
          // CLI process has exited (revokedAt): the delay is then negative, within the bound.
          refusedAt = performance.now();
        } else {
          assert.equal(reply.status, 200, reply.text);
        }
        if (revokedAt !== undefined && performance.now() - revokedAt > DOCUMENTED_TTL_MS * 5) break;
      }
      await revoking;
      assert.ok(refusedAt !== undefined && revokedAt !== undefined, 'the revoked key kept working');
      const delay = refusedAt - revokedAt;
      // The bound, plus a margin for one request in flight and the polling.
      assert.ok(
        delay <= DOCUMENTED_TTL_MS + 500,
        `refused ${Math.round(delay)} ms after the revocation`,
      );
      // And it stays refused.
      for (let i = 0; i < 5; i++) {
        const reply = await call(server.url, {
          headers: { apikey: key },
          body: topicBody(1),
          agent,
        });
        assert.equal(reply.status, 401);
      }
    } finally {
      agent.destroy();
    }
  });

  test('a guess matching a real key in its first 31 characters takes no longer than one matching in none', {
    timeout: 120_000,
  }, async () => {
    const { key } = await server.createKey();
    secrets.push(key);
    const nearMiss = changeAt(key, 31);
    const farMiss = changeAt(key, 0);
    const agent = keepAliveAgent();
    try {
      const timings = { near: [] as number[], far: [] as number[] };
      const measure = async (guess: string, into: number[]) => {
        const started = performance.now();
        const reply = await call(server.url, {
          headers: { apikey: guess },
          body: topicBody(1),
          agent,
        });
        into.push(performance.now() - started);
        assert.equal(reply.status, 401, reply.text);
      };
      // Warm-up, then interleaved so that drift in the machine's speed hits both groups alike.
      for (let i = 0; i < 50; i++) await measure(i % 2 ? nearMiss : farMiss, []);
      for (let i = 0; i < SAMPLES; i++) {
        await measure(nearMiss, timings.near);
        await measure(farMiss, timings.far);
      }
      const near = median(timings.near);
      const far = median(timings.far);
      // Generous on purpose (this must never be flaky): a leak worth exploiting over a network
      // would show as a systematic gap far above this; the digest lookup leaves none.
      const tolerance = 0.1 + 0.25 * Math.max(near, far);
      assert.ok(
        Math.abs(near - far) <= tolerance,
        `median near-miss ${near.toFixed(3)} ms, far-miss ${far.toFixed(3)} ms (tolerance ${tolerance.toFixed(3)} ms)`,
      );
    } finally {
      agent.destroy();
    }
  });

  test('no key, valid, revoked or guessed, reaches the log', async () => {
    await sleep(100);
    assert.ok(server.output.some((line) => line.includes('"request"')));
    assertCleanLog(server, secrets);
  });
});
