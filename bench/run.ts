import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir, totalmem } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { hashSync } from '@node-rs/bcrypt';
import { type LoadOptions, type LoadResult, runLoad } from './load.ts';
import { canPin, pinSelf, rssBytes, type Started, startListening } from './processes.ts';
import { writeReport } from './report.ts';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const quick = process.argv.includes('--quick');
const settings = quick
  ? { warmup: 1, seconds: 2, connections: 16, longRequests: 20_000, ceilingSeconds: 2 }
  : { warmup: 5, seconds: 15, connections: 16, longRequests: 1_000_000, ceilingSeconds: 15 };

const SERVER_CORES = '0';
const GENERATOR_CORE = '1';
pinSelf(GENERATOR_CORE);

function cli(args: string[], env: NodeJS.ProcessEnv): string {
  return execFileSync(process.execPath, [join(ROOT, 'bin/deskgate.js'), ...args], {
    env,
    encoding: 'utf8',
  });
}

const work = mkdtempSync(join(tmpdir(), 'deskgate-bench-'));
const databaseUrl = `sqlite:${join(work, 'bench.db')}`;
const baseEnv: NodeJS.ProcessEnv = {
  PATH: process.env.PATH,
  NODE_ENV: 'production',
  DESKGATE_DATABASE_URL: databaseUrl,
  DESKGATE_LOG_FORMAT: 'json',
  DESKGATE_LOG_LEVEL: 'info',
  // The wrong-key scenario measures the 401 path; with the default limit it would measure 429s.
  DESKGATE_AUTH_FAILURE_LIMIT: '1000000000',
  // One key drives every scenario; the per-key limit (1200/min by default) would cap it.
  DESKGATE_RATE_LIMIT: '0',
  HOST: '127.0.0.1',
  PORT: '0',
};
cli(['migrate'], baseEnv);
const { key } = JSON.parse(cli(['keys', 'create', '--name', 'bench', '--json'], baseEnv)) as {
  key: string;
};
const prehashed = hashSync('bench password', 10).replace(/^\$2b\$/, '$2y$');

function topicBody(id: number): string {
  return JSON.stringify({ query: 'topics', condition: 'specific', parameters: { id } });
}
function userBody(password: string, tag: string): (n: number) => string {
  return (n) =>
    JSON.stringify({
      query: 'user',
      condition: 'add',
      parameters: {
        name: `Bench User ${n}`,
        email: `${tag}${n}.${process.pid}@bench.example`,
        password,
        timezone: 'UTC',
        phone: 351210000000,
        org_id: 0,
        default_email_id: 0,
        status: 1,
      },
    });
}

type Scenario = Omit<LoadOptions, 'url' | 'connections' | 'seconds'> & { name: string };
const scenarios: Scenario[] = [
  {
    name: 'topic lookup (hit)',
    method: 'GET',
    headers: { apikey: key },
    body: topicBody(1),
    expectStatus: 200,
  },
  {
    name: 'topic lookup (miss, 204)',
    method: 'GET',
    headers: { apikey: key },
    body: topicBody(999),
    expectStatus: 204,
  },
  {
    name: 'user add (pre-hashed password)',
    method: 'POST',
    headers: { apikey: key },
    body: userBody(prehashed, 'pre'),
    expectStatus: 200,
  },
  {
    name: 'user add (plain password, bcrypt cost 10)',
    method: 'POST',
    headers: { apikey: key },
    body: userBody('plain password', 'plain'),
    expectStatus: 200,
  },
  {
    name: 'wrong key (401)',
    method: 'GET',
    headers: { apikey: '0123456789ABCDEF0123456789ABCDEF' },
    body: topicBody(1),
    expectStatus: 401,
  },
];

async function measure(server: Started, scenario: Scenario): Promise<LoadResult> {
  const url = `http://127.0.0.1:${server.port}/upload/svc_wbs/`;
  // Warm-up runs with its own request counter range so user adds never collide with the measured run.
  const warmBody =
    typeof scenario.body === 'string'
      ? scenario.body
      : (n: number) => (scenario.body as (n: number) => string)(n + 1e9);
  await runLoad({
    ...scenario,
    body: warmBody,
    url,
    connections: settings.connections,
    seconds: settings.warmup,
  });
  return runLoad({
    ...scenario,
    url,
    connections: settings.connections,
    seconds: settings.seconds,
  });
}

const serverArgs = [join(ROOT, 'bin/deskgate.js'), 'serve'];
const results: Record<string, unknown> = {};

console.error(
  `deskgate bench (${quick ? 'quick' : 'full'}): ${settings.connections} connections, ${settings.seconds}s per scenario after ${settings.warmup}s warm-up${canPin ? `; server on core ${SERVER_CORES}, load generator on core ${GENERATOR_CORE}` : '; no taskset: processes not pinned'}`,
);

// (a) deskgate, one process.
const deskgate = await startListening(serverArgs, baseEnv, SERVER_CORES);
const single: Record<string, LoadResult> = {};
for (const scenario of scenarios) {
  single[scenario.name] = await measure(deskgate, scenario);
  console.error(
    `  deskgate  ${scenario.name}: ${Math.round(single[scenario.name]?.requestsPerSecond ?? 0)} req/s`,
  );
}
const hit = scenarios[0] as Scenario;
const maxRate = single[hit.name]?.requestsPerSecond ?? 0;
const halfRate = await runLoad({
  ...hit,
  url: `http://127.0.0.1:${deskgate.port}/upload/svc_wbs/`,
  connections: settings.connections,
  seconds: settings.seconds,
  rate: Math.max(1, Math.round(maxRate / 2)),
});

// RSS across a long run of lookups.
const rssBefore = rssBytes(deskgate.child.pid);
const long = await runLoad({
  ...hit,
  url: `http://127.0.0.1:${deskgate.port}/upload/svc_wbs/`,
  connections: settings.connections,
  amount: settings.longRequests,
});
const rssAfter = rssBytes(deskgate.child.pid);
await deskgate.stop();

// (b) the reference server, with a body as long as deskgate's topic response.
const probe = await startListening(serverArgs, baseEnv, SERVER_CORES);
const topicResponse = await fetchTopicLength(probe.port);
await probe.stop();
const reference = await startListening(
  [join(ROOT, 'bench/reference-server.ts'), String(topicResponse)],
  baseEnv,
  SERVER_CORES,
);
const referenceHit = await measure(reference, { ...hit, name: 'reference' });
await reference.stop();

// (c) the database's own ceiling for the user-creation transaction.
const ceilingDb = join(work, 'ceiling.db');
cli(['migrate', '--database', `sqlite:${ceilingDb}`], baseEnv);
const ceiling = JSON.parse(
  execFileSync(canPin ? 'taskset' : process.execPath, [
    ...(canPin ? ['-c', SERVER_CORES, process.execPath] : []),
    join(ROOT, 'bench/driver-ceiling.ts'),
    ceilingDb,
    String(settings.ceilingSeconds),
  ]).toString(),
) as { perSecond: number };

// deskgate with DESKGATE_WORKERS=2 (both cores: the generator shares one with a worker).
const workers = await startListening(serverArgs, { ...baseEnv, DESKGATE_WORKERS: '2' }, '0,1');
const twoWorkers: Record<string, LoadResult> = {};
for (const scenario of [scenarios[0], scenarios[2]] as Scenario[]) {
  twoWorkers[scenario.name] = await measure(workers, {
    ...scenario,
    body: typeof scenario.body === 'string' ? scenario.body : userBody(prehashed, 'w2'),
  });
}
await workers.stop();

async function fetchTopicLength(port: number): Promise<number> {
  const { request } = await import('node:http');
  return new Promise((resolve, reject) => {
    const req = request(
      `http://127.0.0.1:${port}/upload/svc_wbs/`,
      { method: 'GET', headers: { apikey: key } },
      (res) => {
        let length = 0;
        res.on('data', (c: Buffer) => {
          length += c.length;
        });
        res.on('end', () => resolve(length));
      },
    );
    req.on('error', reject);
    req.end(topicBody(1));
  });
}

const cpu = cpus()[0]?.model ?? 'unknown CPU';
Object.assign(results, {
  date: new Date().toISOString(),
  mode: quick ? 'quick' : 'full',
  machine: {
    cpu,
    cores: cpus().length,
    memoryGiB: Math.round(totalmem() / 2 ** 30),
    node: process.version,
    pinned: canPin,
  },
  settings,
  single,
  halfRate: { rate: Math.round(maxRate / 2), ...halfRate },
  reference: referenceHit,
  driverCeiling: ceiling.perSecond,
  twoWorkers,
  memory: {
    requests: long.total,
    rssBefore,
    rssAfter,
    growth: (rssAfter - rssBefore) / rssBefore,
    errors: long.errors,
  },
});
rmSync(work, { recursive: true, force: true });

const outDir = quick
  ? mkdtempSync(join(tmpdir(), 'deskgate-bench-out-'))
  : join(ROOT, 'bench', 'results');
mkdirSync(outDir, { recursive: true });
writeFileSync(join(outDir, 'latest.json'), `${JSON.stringify(results, null, 2)}\n`);
const summary = writeReport(results as never, { root: ROOT, writeDocs: !quick });
process.stdout.write(summary);
console.error(`results: ${join(outDir, 'latest.json')}`);
