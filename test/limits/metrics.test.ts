import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { describeEachDatabase } from '../helpers/each-database.ts';
import { call, topicBody } from '../helpers/http.ts';
import { promtoolMissing, runPromtool } from '../helpers/promtool.ts';
import { useTestServer } from '../helpers/test-server.ts';

async function scrape(origin: string): Promise<{ status: number; type: string; text: string }> {
  const response = await fetch(`${origin}/metrics`);
  return {
    status: response.status,
    type: response.headers.get('content-type') ?? '',
    text: await response.text(),
  };
}

/** The value of one series, e.g. deskgate_requests_total{operation="topics/specific",status="200"}. */
function seriesValue(text: string, name: string, labels: Record<string, string>): number {
  const line = text
    .split('\n')
    .find(
      (l) =>
        l.startsWith(`${name}{`) &&
        Object.entries(labels).every(([k, v]) => l.includes(`${k}="${v}"`)),
    );
  return line ? Number(line.split(' ').at(-1)) : 0;
}

describeEachDatabase('/metrics', (database) => {
  const server = useTestServer({ database, scopes: ['read'] });
  const off = useTestServer({ database, env: { DESKGATE_METRICS: 'false' } });
  let key: string;
  before(() => {
    key = server.key;
  });

  test('promtool check metrics passes the scrape of one process (exit 0, no lint findings)', {
    skip: promtoolMissing,
  }, async () => {
    await call(server.url, { headers: { apikey: key }, body: topicBody(1) });
    const { text } = await scrape(server.origin);
    assert.match(text, /^nodejs_active_handles\{/m);
    const { code, output } = runPromtool(['check', 'metrics'], text);
    assert.equal(code, 0, `promtool exited ${code}: ${output}`);
    assert.equal(output.trim(), '');
  });

  test('Prometheus text with requests by operation and status, latency, auth failures, process metrics', async () => {
    // The server is shared by this file's tests: count what these calls add.
    const earlier = (await scrape(server.origin)).text;
    await call(server.url, { headers: { apikey: key }, body: topicBody(1) });
    await call(server.url, { headers: { apikey: key }, body: topicBody(1) });
    await call(server.url, { headers: { apikey: key }, body: topicBody(999) });
    await call(server.url, { body: topicBody(1) });
    await call(server.url, {
      headers: { apikey: 'ABCDEF0123456789ABCDEF0123456789' },
      body: topicBody(1),
    });
    await call(server.url, {
      method: 'POST',
      headers: { apikey: key },
      body: { query: 'user', condition: 'add', parameters: {} },
    });
    const { status, type, text } = await scrape(server.origin);
    const added = (name: string, labels: Record<string, string>): number =>
      seriesValue(text, name, labels) - seriesValue(earlier, name, labels);
    assert.equal(status, 200);
    assert.match(type, /^text\/plain; version=0\.0\.4/);
    assert.equal(
      added('deskgate_requests_total', {
        operation: 'topics/specific',
        status: '200',
      }),
      2,
    );
    assert.equal(
      added('deskgate_requests_total', {
        operation: 'topics/specific',
        status: '204',
      }),
      1,
    );
    assert.equal(
      added('deskgate_request_duration_seconds_count', {
        operation: 'topics/specific',
      }),
      3,
    );
    assert.equal(added('deskgate_auth_failures_total', { reason: 'missing_api_key' }), 1);
    assert.equal(added('deskgate_auth_failures_total', { reason: 'invalid_api_key' }), 1);
    assert.equal(added('deskgate_auth_failures_total', { reason: 'insufficient_scope' }), 1);
    assert.match(text, /^process_cpu_user_seconds_total \d/m);
    assert.match(text, /^nodejs_eventloop_lag_seconds \d/m);
    if (database.kind !== 'sqlite')
      assert.match(text, /^deskgate_db_pool_connections\{state="idle"\} \d+/m);
    assert.ok(!text.includes(key), 'no key in the metrics');
  });

  test('DESKGATE_METRICS=false turns /metrics off', async () => {
    const { status } = await scrape(off.origin);
    assert.equal(status, 404);
  });
});
