import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { makeMetrics } from '../../src/metrics/metrics.ts';
import { ROOT } from '../helpers/paths.ts';
import { promtoolMissing, runPromtool } from '../helpers/promtool.ts';

const RULES = join(ROOT, 'docs', 'monitoring', 'deskgate-alerts.yml');
const RULE_TESTS = join(ROOT, 'docs', 'monitoring', 'deskgate-alerts.test.yml');

test('the alert rules are valid and fire (and stay quiet) as their promtool tests say', {
  skip: promtoolMissing,
}, () => {
  const checked = runPromtool(['check', 'rules', RULES]);
  assert.equal(checked.code, 0, checked.output);
  const tested = runPromtool(['test', 'rules', RULE_TESTS]);
  assert.equal(tested.code, 0, tested.output);
  assert.match(tested.output, /SUCCESS/);
});

test('every deskgate series the rules and docs name is one deskgate exports', async () => {
  const exported = await makeMetrics({
    poolStats: () => ({ total: 2, idle: 1, waiting: 0 }),
    // As on SQLite, where the write queue's series exists.
    writesWaiting: () => 0,
    database: 'postgres',
    // As with DESKGATE_REDIS_URL, where the Redis series exist.
    limiterStats: () => ({ redisUp: 1, fallbacks: 0 }),
    webhookQueue: async () => ({ pending: 0, oldestPendingMs: undefined, disabledWebhooks: 0 }),
  }).render();
  const documents = [RULES, join(ROOT, 'docs', 'monitoring.md')];
  for (const file of documents) {
    const named = new Set(readFileSync(file, 'utf8').match(/\bdeskgate_[a-z_]+/g) ?? []);
    assert.ok(named.size > 0, file);
    for (const name of named) {
      const family = name.replace(/_(bucket|sum|count)$/, '');
      assert.match(exported, new RegExp(`^# TYPE (${name}|${family}) `, 'm'), `${file}: ${name}`);
    }
  }
});
