import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { LoadResult } from './load.ts';
import type { HeapFigures } from './processes.ts';

export interface BenchResults {
  date: string;
  mode: string;
  machine: { cpu: string; cores: number; memoryGiB: number; node: string; pinned: boolean };
  settings: {
    warmup: number;
    seconds: number;
    /** Interleaved rounds the reference and the look-ups compared with it are measured in. */
    rounds?: number;
    connections: number;
    longRequests: number;
  };
  single: Record<string, LoadResult>;
  halfRate: LoadResult & { rate: number };
  reference: LoadResult;
  /** The reference with deskgate's body but only Content-Type and Content-Length; older runs lack it. */
  referenceTwoHeaders?: LoadResult;
  /** The reference at half of its own maximum rate, loaded the same way; older runs lack it. */
  referenceHalfRate?: LoadResult & { rate: number };
  driverCeiling: number;
  twoWorkers: Record<string, LoadResult>;
  /** One process placed as the workers are (both cores, shared with wrk); older runs lack it. */
  oneProcessShared?: LoadResult;
  /** The first scenarios again on PostgreSQL and MariaDB, when the run was given them. */
  otherDatabases: Record<string, Record<string, LoadResult>>;
  memory: {
    requests: number;
    rssBefore: number;
    rssAfter: number;
    growth: number;
    /** The server's V8 heap before and after, from its /metrics; older runs lack them. */
    heapBefore?: HeapFigures | undefined;
    heapAfter?: HeapFigures | undefined;
    errors: number;
  };
}

const f0 = (n: number) => Math.round(n).toLocaleString('en-US');
const f2 = (n: number) => n.toFixed(2);

const f1 = (n: number) => n.toFixed(1);

function row(name: string, r: LoadResult): string {
  return `| ${name} | ${f0(r.requestsPerSecond)} | ${f1(r.cpuMicrosPerRequest)} | ${f2(r.p50)} | ${f2(r.p99)} | ${f2(r.max)} | ${Math.round(r.generatorCoreShare * 100)}% | ${r.errors} |`;
}

/** How much of the reference's efficiency a scenario keeps: reference CPU/request ÷ its own. */
function cpuRatio(x: LoadResult, reference: LoadResult): number {
  return reference.cpuMicrosPerRequest / x.cpuMicrosPerRequest;
}

const mib = (bytes: number) => f0(bytes / 2 ** 20);

/** How V8's heap moved over the same requests, so a resident set's growth can be placed. */
function heapChange(before: HeapFigures | undefined, after: HeapFigures | undefined): string {
  if (!before || !after) return '';
  return `; V8 heap committed ${mib(before.committed)} → ${mib(after.committed)} MiB, of which young generation ${mib(before.young)} → ${mib(after.young)}, in use ${mib(before.used)} → ${mib(after.used)}`;
}

function bars(r: BenchResults): { bar: string; value: string; met: boolean }[] {
  const hit = Object.values(r.single)[0] as LoadResult;
  const prehashed = Object.values(r.single)[2] as LoadResult;
  const errors = [
    ...Object.values(r.single),
    ...Object.values(r.twoWorkers),
    ...(r.oneProcessShared ? [r.oneProcessShared] : []),
    ...Object.values(r.otherDatabases).flatMap((x) => Object.values(x)),
    r.halfRate,
    r.reference,
    ...(r.referenceTwoHeaders ? [r.referenceTwoHeaders] : []),
    ...(r.referenceHalfRate ? [r.referenceHalfRate] : []),
  ].reduce((sum, x) => sum + x.errors, r.memory.errors);
  const [miss, , , wrongKey] = Object.values(r.single).slice(1) as LoadResult[];
  const workersHit = Object.values(r.twoWorkers)[0] as LoadResult;
  const oneProcess = r.oneProcessShared ?? hit;
  const cpuBar = (name: string, x: LoadResult) => ({
    bar: `${name}: CPU/request ≤ 2 × the reference (ratio ≥ 0.5)`,
    value:
      `${f2(cpuRatio(x, r.reference))} (${f1(x.cpuMicrosPerRequest)} µs vs ${f1(r.reference.cpuMicrosPerRequest)} µs)` +
      (r.referenceTwoHeaders
        ? `; ${f2(cpuRatio(x, r.referenceTwoHeaders))} against the reference with two headers`
        : ''),
    met: cpuRatio(x, r.reference) >= 0.5,
  });
  return [
    cpuBar('topic lookup', hit),
    cpuBar('topic miss (204)', miss as LoadResult),
    cpuBar('wrong key (401)', wrongKey as LoadResult),
    {
      bar: 'p99 < 2 ms at half of max rate',
      value:
        `${f2(r.halfRate.p99)} ms at ${f0(r.halfRate.requestsPerSecond)} req/s` +
        (r.referenceHalfRate
          ? ` (the reference at half of its own maximum: ${f2(r.referenceHalfRate.p99)} ms)`
          : ''),
      met: r.halfRate.p99 < 2,
    },
    {
      bar: 'user add (pre-hashed) ≥ 0.7 × driver ceiling',
      value: `${f2(prehashed.requestsPerSecond / r.driverCeiling)} × (${f0(r.driverCeiling)} tx/s)`,
      met: prehashed.requestsPerSecond >= 0.7 * r.driverCeiling,
    },
    {
      bar: `DESKGATE_WORKERS=2 above one process for lookups${r.oneProcessShared ? ' placed the same way' : ''}`,
      value: `${f0(workersHit.requestsPerSecond)} vs ${f0(oneProcess.requestsPerSecond)} req/s`,
      met: workersHit.requestsPerSecond > oneProcess.requestsPerSecond,
    },
    {
      bar: `RSS flat (< 5% growth) across ${f0(r.memory.requests)} requests`,
      value: `${(r.memory.growth * 100).toFixed(1)}% (${mib(r.memory.rssBefore)} → ${mib(r.memory.rssAfter)} MiB${heapChange(r.memory.heapBefore, r.memory.heapAfter)})`,
      met: r.memory.growth < 0.05,
    },
    { bar: 'zero errors', value: String(errors), met: errors === 0 },
  ];
}

export function renderMarkdown(r: BenchResults): string {
  const lines = [
    `Run ${r.date} (${r.mode}) on ${r.machine.cpu}, ${r.machine.cores} cores, ${r.machine.memoryGiB} GiB, Node ${r.machine.node}; ` +
      `${r.settings.connections} keep-alive connections, ${r.settings.warmup} s warm-up then ${r.settings.seconds} s per scenario` +
      ((r.settings.rounds ?? 1) > 1
        ? ` (the reference, the hit, the miss and the 401 in ${r.settings.rounds} interleaved rounds of ${r.settings.seconds / (r.settings.rounds ?? 1)} s, each pooling its rounds: p99 and max are the worst round's)`
        : '') +
      '; ' +
      (r.machine.pinned
        ? 'server pinned to core 0, load generator (wrk) to core 1.'
        : 'not pinned (no taskset).') +
      " CPU/req is the server processes' user + system time per request (from /proc); wrk is the share of a core the generator used (near 100%: the generator was the limit).",
    '',
    '| scenario | req/s | CPU µs/req | p50 ms | p99 ms | max ms | wrk | errors |',
    '|---|---:|---:|---:|---:|---:|---:|---:|',
    ...Object.entries(r.single).map(([name, x]) => row(`deskgate: ${name}`, x)),
    row('reference node:http (the same headers, a constant body of the same size)', r.reference),
    ...(r.referenceTwoHeaders
      ? [
          row(
            'reference node:http (Content-Type and Content-Length only, the same body)',
            r.referenceTwoHeaders,
          ),
        ]
      : []),
    `| SQLite driver ceiling (same transaction, direct) | ${f0(r.driverCeiling)} | | | | | | |`,
    ...(r.oneProcessShared
      ? [
          row(
            'deskgate, one process on both cores, shared with wrk: topic lookup (hit)',
            r.oneProcessShared,
          ),
        ]
      : []),
    ...Object.entries(r.twoWorkers).map(([name, x]) =>
      row(`deskgate, DESKGATE_WORKERS=2: ${name}`, x),
    ),
    row(
      `deskgate: topic lookup at about half of max rate (${f0(r.halfRate.rate)} req/s)`,
      r.halfRate,
    ),
    ...(r.referenceHalfRate
      ? [
          row(
            `reference node:http at about half of its max rate (${f0(r.referenceHalfRate.rate)} req/s)`,
            r.referenceHalfRate,
          ),
        ]
      : []),
    ...Object.entries(r.otherDatabases).flatMap(([database, results]) =>
      Object.entries(results).map(([name, x]) => row(`deskgate on ${database}: ${name}`, x)),
    ),
    '',
    '| bar | measured | met |',
    '|---|---|---|',
    ...bars(r).map((b) => `| ${b.bar} | ${b.value} | ${b.met ? 'yes' : '**no**'} |`),
    '',
  ];
  return lines.join('\n');
}

/** A horizontal bar chart of req/s and p99 per scenario, deskgate against the reference. */
export function renderSvg(r: BenchResults): string {
  const entries: [string, LoadResult, string][] = [
    ...Object.entries(r.single).map(
      ([name, x]) => [name, x, '#2b6cb0'] as [string, LoadResult, string],
    ),
    ['reference node:http', r.reference, '#a0aec0'],
  ];
  const maxRps = Math.max(...entries.map(([, x]) => x.requestsPerSecond));
  const maxP99 = Math.max(...entries.map(([, x]) => x.p99));
  const rowH = 28;
  const labelW = 300;
  const barW = 260;
  const height = 60 + entries.length * rowH;
  const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;');
  const rows = entries
    .map(([name, x, color], i) => {
      const y = 50 + i * rowH;
      const w1 = (x.requestsPerSecond / maxRps) * barW;
      const w2 = maxP99 > 0 ? (x.p99 / maxP99) * barW : 0;
      return [
        `<text x="${labelW - 8}" y="${y + 15}" text-anchor="end">${esc(name)}</text>`,
        `<rect x="${labelW}" y="${y}" width="${w1.toFixed(1)}" height="20" fill="${color}"/>`,
        `<text x="${labelW + w1 + 4}" y="${y + 15}">${f0(x.requestsPerSecond)}</text>`,
        `<rect x="${labelW + barW + 90}" y="${y}" width="${w2.toFixed(1)}" height="20" fill="${color}" opacity="0.7"/>`,
        `<text x="${labelW + barW + 94 + w2}" y="${y + 15}">${f2(x.p99)} ms</text>`,
      ].join('');
    })
    .join('\n');
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${labelW + 2 * barW + 200}" height="${height}" font-family="sans-serif" font-size="12">
<title>deskgate benchmark: requests per second and p99 latency per scenario</title>
<rect width="100%" height="100%" fill="white"/>
<text x="${labelW}" y="30" font-weight="bold">requests per second</text>
<text x="${labelW + barW + 90}" y="30" font-weight="bold">p99 latency</text>
${rows}
</svg>
`;
}

/** Prints the summary; in a full run also writes docs/PERFORMANCE.md's figures and the chart. */
export function writeReport(
  r: BenchResults,
  options: { root: string; writeDocs: boolean },
): string {
  const markdown = renderMarkdown(r);
  if (options.writeDocs) {
    writeFileSync(join(options.root, 'docs', 'bench-chart.svg'), renderSvg(r));
    const path = join(options.root, 'docs', 'PERFORMANCE.md');
    const doc = readFileSync(path, 'utf8');
    const start = '<!-- bench:start -->';
    const end = '<!-- bench:end -->';
    const updated = `${doc.slice(0, doc.indexOf(start) + start.length)}\n${markdown}\n${doc.slice(doc.indexOf(end))}`;
    writeFileSync(path, updated);
  }
  return markdown;
}
