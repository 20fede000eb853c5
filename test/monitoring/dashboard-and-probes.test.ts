import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { parse } from 'yaml';
import { makeMetrics } from '../../src/metrics/metrics.ts';
import { REDIS_URL } from '../helpers/databases.ts';
import { describeEachDatabase, describeWithDatabase, SQLITE } from '../helpers/each-database.ts';
import { topicBody } from '../helpers/http.ts';
import { ROOT } from '../helpers/paths.ts';
import { promtoolMissing, runPromtool } from '../helpers/promtool.ts';
import { useTestServer } from '../helpers/test-server.ts';

const MONITORING = join(ROOT, 'docs', 'monitoring');

interface Panel {
  title: string;
  targets: { expr: string }[];
}

const dashboard = JSON.parse(readFileSync(join(MONITORING, 'deskgate-dashboard.json'), 'utf8')) as {
  panels: Panel[];
};

/** The series names a PromQL expression reads (deskgate's, the process's and Node's). */
function seriesOf(expr: string): string[] {
  return expr.match(/\b(?:deskgate|process|nodejs)_[a-z0-9_]+\b/g) ?? [];
}

/** The sample names of a Prometheus text scrape (`_bucket`, `_sum`, `_count` included). */
function sampleNames(text: string): string[] {
  return text
    .split('\n')
    .filter((line) => line !== '' && !line.startsWith('#'))
    .map((line) => line.split(/[{ ]/)[0] ?? '');
}

/** Every sample name the real servers below answered on /metrics. */
const scraped = new Set<string>();
const scrapedKinds = new Set<string>();

// Issue 37, item 13: docs/monitoring had alert rules but no dashboard and no probe config.
describeEachDatabase('/metrics, scraped for the dashboard', (database, kind) => {
  const server = useTestServer({
    database,
    env: REDIS_URL
      ? {
          DESKGATE_REDIS_URL: REDIS_URL,
          DESKGATE_REDIS_PREFIX: `dashboard-${randomBytes(4).toString('hex')}`,
        }
      : {},
  });

  test('serves the series a dashboard reads, after traffic and a refused key', async () => {
    assert.equal((await server.request(topicBody(1))).status, 200);
    assert.equal((await server.request(topicBody(1), { key: null })).status, 401);
    assert.equal((await fetch(`${server.origin}/readyz`)).status, 200);
    const text = await (await fetch(`${server.origin}/metrics`)).text();
    for (const name of sampleNames(text)) scraped.add(name);
    scrapedKinds.add(kind.name);
    if (REDIS_URL) scrapedKinds.add('redis');
  });
});

describe('docs/monitoring/deskgate-dashboard.json', () => {
  test('every panel queries series that a real /metrics scrape holds', async () => {
    assert.ok(scraped.size > 0, 'no scrape');
    // Series of a database kind or of Redis this run has no server of: from the metrics code
    // itself, configured as that kind would be.
    const unscraped = await makeMetrics({
      poolStats: () => ({ total: 2, idle: 1, waiting: 0 }),
      database: 'postgres',
      limiterStats: () => ({ redisUp: 1, fallbacks: 0 }),
    }).render();
    const known = (name: string) => {
      if (scraped.has(name)) return true;
      const needs = name.startsWith('deskgate_db_pool_')
        ? ['postgres', 'mysql']
        : /^deskgate_(redis_up|rate_limit_fallback)/.test(name)
          ? ['redis']
          : undefined;
      return (
        needs !== undefined &&
        !needs.some((kind) => scrapedKinds.has(kind)) &&
        sampleNames(unscraped).includes(name)
      );
    };
    assert.ok(dashboard.panels.length >= 10);
    for (const panel of dashboard.panels) {
      const series = panel.targets.flatMap((target) => seriesOf(target.expr));
      assert.ok(series.length > 0, `${panel.title}: no series`);
      assert.deepEqual(
        series.filter((name) => !known(name)),
        [],
        `${panel.title}: series /metrics does not export`,
      );
    }
    // Every series deskgate exports has a panel.
    const shown = new Set(
      dashboard.panels.flatMap((p) => p.targets.flatMap((t) => seriesOf(t.expr))),
    );
    const families = [...scraped].filter((name) => name.startsWith('deskgate_'));
    assert.deepEqual(
      families.filter(
        (name) => !shown.has(name) && !shown.has(`${name.replace(/_(sum|count)$/, '')}_bucket`),
      ),
      [],
    );
  });

  test('its queries are valid PromQL (promtool, with the dashboard variables filled in)', {
    skip: promtoolMissing,
  }, () => {
    const rules = dashboard.panels.flatMap((panel, p) =>
      panel.targets.map((target, t) => ({
        record: `dashboard:panel_${p}_${t}`,
        expr: target.expr.replaceAll('$__rate_interval', '5m').replaceAll('$instance', '.*'),
      })),
    );
    const dir = mkdtempSync(join(tmpdir(), 'deskgate-dashboard-'));
    try {
      const file = join(dir, 'dashboard-rules.yml');
      writeFileSync(file, JSON.stringify({ groups: [{ name: 'dashboard', rules }] }));
      const checked = runPromtool(['check', 'rules', file]);
      assert.equal(checked.code, 0, checked.output);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describeWithDatabase('the probe configurations of docs/monitoring', SQLITE, (database) => {
  const server = useTestServer({ database });

  test('Kubernetes: the probes name paths that answer 200 while the database does', async () => {
    const container = parse(
      readFileSync(join(MONITORING, 'kubernetes-probes.yaml'), 'utf8'),
    ) as Record<string, { httpGet: { path: string; port: string } }>;
    const paths = ['startupProbe', 'livenessProbe', 'readinessProbe'].map(
      (probe) => container[probe]?.httpGet.path,
    );
    assert.deepEqual(paths, ['/healthz', '/healthz', '/readyz']);
    for (const path of paths) assert.equal((await fetch(`${server.origin}${path}`)).status, 200);
  });

  test('blackbox: the module accepts what /readyz answers, and the job probes /readyz with it', async () => {
    const { modules } = parse(readFileSync(join(MONITORING, 'blackbox.yml'), 'utf8')) as {
      modules: Record<string, { http: { fail_if_body_not_matches_regexp: string[] } }>;
    };
    const [pattern = ''] = modules.deskgate_ready?.http.fail_if_body_not_matches_regexp ?? [];
    const body = await (await fetch(`${server.origin}/readyz`)).text();
    assert.match(body, new RegExp(pattern));
    const prometheus = readFileSync(join(MONITORING, 'prometheus-readyz-probe.yml'), 'utf8');
    const { scrape_configs: jobs } = parse(prometheus) as {
      scrape_configs: { params: { module: string[] }; static_configs: { targets: string[] }[] }[];
    };
    assert.deepEqual(jobs[0]?.params.module, ['deskgate_ready']);
    for (const target of jobs[0]?.static_configs[0]?.targets ?? [])
      assert.match(target, /\/readyz$/);
  });

  test('the Prometheus job is a valid configuration (promtool)', { skip: promtoolMissing }, () => {
    const checked = runPromtool([
      'check',
      'config',
      join(MONITORING, 'prometheus-readyz-probe.yml'),
    ]);
    assert.equal(checked.code, 0, checked.output);
  });
});
