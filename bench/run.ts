import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir, totalmem } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { hashSync } from '@node-rs/bcrypt';
import { freshDatabase } from './databases.ts';
import {
  hasWrk,
  type LoadOptions,
  type LoadResult,
  poolRuns,
  processTree,
  runLoad,
  sendOnce,
} from './load.ts';
import {
  canPin,
  heapFigures,
  rssBytes,
  type Started,
  startListening,
  startScriptArgs,
} from './processes.ts';
import { type BenchResults, writeReport } from './report.ts';
import { TICKET_ADD_BODY, ticketWriteBody } from './ticket-writes.ts';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const quick = process.argv.includes('--quick');
const settings = quick
  ? { warmup: 1, seconds: 2, rounds: 1, connections: 16, longRequests: 20_000, ceilingSeconds: 2 }
  : {
      warmup: 5,
      seconds: 15,
      rounds: 3,
      connections: 16,
      longRequests: 1_000_000,
      ceilingSeconds: 15,
    };

/** The mean wait of each connection between its requests in the half-rate runs, in ms. */
const THINK_MS = 2;
const SERVER_CORES = '0';
const GENERATOR_CORE = '1';

if (!hasWrk()) {
  console.error(
    'npm run bench needs wrk, a load generator written in C (a Node generator saturates before the server does).\nInstall it: apt-get install wrk (Debian/Ubuntu), brew install wrk (macOS).',
  );
  process.exit(1);
}

function cli(args: string[], env: NodeJS.ProcessEnv): string {
  return execFileSync(process.execPath, [join(ROOT, 'bin/deskgate.js'), ...args], {
    env,
    encoding: 'utf8',
  });
}

const work = mkdtempSync(join(tmpdir(), 'deskgate-bench-'));
const sqliteUrl = `sqlite:${join(work, 'bench.db')}`;
const baseEnv: NodeJS.ProcessEnv = {
  PATH: process.env.PATH,
  NODE_ENV: 'production',
  DESKGATE_DATABASE_URL: sqliteUrl,
  DESKGATE_LOG_FORMAT: 'json',
  DESKGATE_LOG_LEVEL: 'info',
  // The wrong-key scenario measures the 401 path; with the default limit it would measure 429s.
  DESKGATE_AUTH_FAILURE_LIMIT: '1000000000',
  // Limits stay on, but high enough that one key driving every scenario is never answered 429.
  DESKGATE_RATE_LIMIT: '10000000',
  HOST: '127.0.0.1',
  PORT: '0',
};

function prepare(databaseUrl: string): string {
  const env = { ...baseEnv, DESKGATE_DATABASE_URL: databaseUrl };
  cli(['migrate'], env);
  // The agent that answers ticket 1 before the ticket-specific scenario (agent 1).
  cli(
    [
      'agents',
      'add',
      '--username',
      'bench',
      '--name',
      'Bench Agent',
      '--email',
      'agent@bench.example',
    ],
    env,
  );
  // --any-agent: the ticket scenarios reply as the agent made above (a key acts only as its agents).
  return (
    JSON.parse(cli(['keys', 'create', '--name', 'bench', '--any-agent', '--json'], env)) as {
      key: string;
    }
  ).key;
}
const key = prepare(sqliteUrl);
const prehashed = hashSync('bench password', 10).replace(/^\$2b\$/, '$2y$');

function topicBody(id: number): string {
  return JSON.stringify({ query: 'topics', condition: 'specific', parameters: { id } });
}
function userBody(password: string, tag: string): { template: string; offset: number } {
  const template = JSON.stringify({
    query: 'user',
    condition: 'add',
    parameters: {
      name: 'Bench User {n}',
      email: `${tag}{n}.${process.pid}@bench.example`,
      password,
      timezone: 'UTC',
      phone: 351210000000,
      org_id: 0,
      default_email_id: 0,
      status: 1,
    },
  });
  return { template, offset: 0 };
}

/** ticket/all: the first page of 100 tickets with their entries (ticket add has made thousands). */
const TICKET_PAGE_BODY = JSON.stringify({
  query: 'ticket',
  condition: 'all',
  sort: 'creationDate',
  parameters: { start_date: '2000-01-01', end_date: '2999-12-31', limit: 100 },
});

/** events/since: the feed's first page of 100 (ticket add made thousands of events). */
const EVENTS_PAGE_BODY = JSON.stringify({
  query: 'events',
  condition: 'since',
  parameters: { start_time: '2000-01-01T00:00:00Z', limit: 100 },
});

/** ticket/specific: ticket 1 (made by ticket add) with its message and three responses. */
const TICKET_SPECIFIC_BODY = JSON.stringify({
  query: 'ticket',
  condition: 'specific',
  parameters: { id: 1 },
});

type Scenario = Omit<LoadOptions, 'url' | 'connections' | 'seconds' | 'serverPids'> & {
  name: string;
  /** Run once on a server before its first measurement of this scenario. */
  prepare?: (server: Started, apiKey: string) => Promise<void>;
};

/** Three agent responses to ticket 1, so its read carries a few entries. */
async function answerTicketOne(server: Started, apiKey: string): Promise<void> {
  for (const body of ['On it.', 'A technician is on the way.', 'Fixed.']) {
    const response = await fetch(`http://127.0.0.1:${server.port}/upload/svc_wbs/`, {
      method: 'POST',
      headers: { apikey: apiKey },
      body: JSON.stringify({
        query: 'ticket',
        condition: 'reply',
        parameters: { ticket_id: 1, staff_id: 1, body },
      }),
    });
    if (response.status !== 200) throw new Error(`ticket/reply answered ${response.status}`);
    await response.arrayBuffer();
  }
}
function scenariosFor(apiKey: string): Scenario[] {
  return [
    {
      name: 'topic lookup (hit)',
      method: 'GET',
      headers: { apikey: apiKey },
      body: topicBody(1),
      expectStatus: 200,
    },
    {
      name: 'topic lookup (miss, 204)',
      method: 'GET',
      headers: { apikey: apiKey },
      body: topicBody(999),
      expectStatus: 204,
    },
    {
      name: 'user add (pre-hashed password)',
      method: 'POST',
      headers: { apikey: apiKey },
      body: userBody(prehashed, 'pre'),
      expectStatus: 200,
    },
    {
      name: 'user add (plain password, bcrypt cost 10)',
      method: 'POST',
      headers: { apikey: apiKey },
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
    {
      name: 'ticket add',
      method: 'POST',
      headers: { apikey: apiKey },
      body: TICKET_ADD_BODY,
      expectStatus: 200,
    },
    {
      name: 'ticket all (a page of 100)',
      method: 'GET',
      headers: { apikey: apiKey },
      body: TICKET_PAGE_BODY,
      expectStatus: 200,
    },
    {
      name: 'ticket specific (4 entries)',
      method: 'GET',
      headers: { apikey: apiKey },
      body: TICKET_SPECIFIC_BODY,
      expectStatus: 200,
      prepare: answerTicketOne,
    },
    // Issue 35: a change costs no more than 1.5 × a reply on the same database.
    {
      name: 'ticket reply',
      method: 'POST',
      headers: { apikey: apiKey },
      body: ticketWriteBody('reply', { body: 'A technician is on the way.' }),
      expectStatus: 200,
    },
    {
      name: 'ticket note',
      method: 'POST',
      headers: { apikey: apiKey },
      body: ticketWriteBody('note', { title: 'Called', body: 'They will send the serial.' }),
      expectStatus: 200,
    },
    {
      name: 'ticket status (close, reopen)',
      method: 'POST',
      headers: { apikey: apiKey },
      body: ticketWriteBody('status', { status_id: '{status}' }, { status: ['3', '1'] }),
      expectStatus: 200,
    },
    {
      name: 'events since (a page of 100)',
      method: 'GET',
      headers: { apikey: apiKey },
      body: EVENTS_PAGE_BODY,
      expectStatus: 200,
    },
  ];
}
/** The scenarios run on PostgreSQL and MariaDB too: look-ups, user add, the ticket reads and writes. */
const ON_EVERY_DATABASE = [0, 1, 2, 5, 6, 7, 8, 9, 10, 11];
const scenarios = scenariosFor(key);
const hit = scenarios[0] as Scenario;

let runs = 0;
/** Numbers the bodies of every wrk run apart, so user adds never collide across runs. */
function numbered(body: LoadOptions['body']): LoadOptions['body'] {
  runs += 1;
  return typeof body === 'string' ? body : { ...body, offset: runs * 10_000_000_000 };
}

/** The load a scenario puts on `server`, all but its duration. */
function loadOptions(
  server: Started,
  scenario: Scenario,
  overrides: Partial<LoadOptions> = {},
): Omit<LoadOptions, 'seconds'> {
  return {
    ...scenario,
    url: `http://127.0.0.1:${server.port}/upload/svc_wbs/`,
    connections: settings.connections,
    serverPids: processTree(server.child.pid ?? 0),
    cores: canPin ? GENERATOR_CORE : undefined,
    ...overrides,
  };
}

/** `port scenario` of the scenarios whose `prepare` has run on that server. */
const prepared = new Set<string>();

async function measure(
  server: Started,
  scenario: Scenario,
  overrides: Partial<LoadOptions> = {},
  timing: { seconds: number; warmup: number } = settings,
): Promise<LoadResult> {
  if (scenario.prepare && !prepared.has(`${server.port} ${scenario.name}`)) {
    prepared.add(`${server.port} ${scenario.name}`);
    await scenario.prepare(server, String(scenario.headers?.apikey ?? ''));
  }
  const options = loadOptions(server, scenario, overrides);
  await runLoad({ ...options, body: numbered(options.body), seconds: timing.warmup });
  return runLoad({ ...options, body: numbered(options.body), seconds: timing.seconds });
}

/** One of `settings.rounds` interleaved rounds: its share of the time, the full warm-up first. */
function roundTiming(round: number): { seconds: number; warmup: number } {
  return { seconds: settings.seconds / settings.rounds, warmup: round === 0 ? settings.warmup : 1 };
}

function log(label: string, name: string, r: LoadResult): void {
  console.error(
    `  ${label.padEnd(10)} ${name}: ${Math.round(r.requestsPerSecond)} req/s, ${r.cpuMicrosPerRequest.toFixed(1)} µs CPU/req, p99 ${r.p99.toFixed(2)} ms, wrk ${(r.generatorCoreShare * 100).toFixed(0)}% of a core, ${r.errors} errors`,
  );
}

const serverArgs = startScriptArgs(ROOT);

console.error(
  `deskgate bench (${quick ? 'quick' : 'full'}): node ${serverArgs.filter((arg) => arg.startsWith('--')).join(' ')} (as npm start), wrk, ${settings.connections} connections, ${settings.seconds}s per scenario after ${settings.warmup}s warm-up${canPin ? `; server on core ${SERVER_CORES}, wrk on core ${GENERATOR_CORE}` : '; no taskset: processes not pinned'}`,
);

// (a) deskgate on SQLite, one process, and (b) the reference server, answering with the bytes of
// deskgate's topic answer, and again with its body and only the two headers a bare server sends
// (the ratios against it are shown beside the bars, which use the first). The scenarios whose CPU
// is compared with the reference's run in rounds, interleaved with it, and each pools its rounds:
// the speed of a shared machine drifts within minutes, and the drift then falls on both sides of
// each ratio.
const deskgate = await startListening(serverArgs, baseEnv, SERVER_CORES);
const answer = await fetchTopicAnswer(deskgate);
const startReference = (headers: string[]) =>
  startListening(
    [join(ROOT, 'bench/reference-server.ts'), JSON.stringify({ ...answer, headers })],
    baseEnv,
    SERVER_CORES,
  );
const reference = await startReference(answer.headers);
const twoHeaders = await startReference([
  'Content-Type',
  'application/json; charset=utf-8',
  'Content-Length',
  String(answer.length),
]);
const compared = [scenarios[0], scenarios[1], scenarios[4]] as Scenario[];
const referenceRuns: LoadResult[] = [];
const twoHeaderRuns: LoadResult[] = [];
const comparedRuns = new Map<string, LoadResult[]>(compared.map((s) => [s.name, []]));
for (let round = 0; round < settings.rounds; round++) {
  const timing = roundTiming(round);
  const run = await measure(reference, { ...hit, name: 'reference' }, {}, timing);
  referenceRuns.push(run);
  log('reference', `same bytes, round ${round + 1}`, run);
  const bare = await measure(twoHeaders, { ...hit, name: 'reference' }, {}, timing);
  twoHeaderRuns.push(bare);
  log('reference', `two headers, round ${round + 1}`, bare);
  for (const scenario of compared) {
    const result = await measure(deskgate, scenario, {}, timing);
    comparedRuns.get(scenario.name)?.push(result);
    log('deskgate', `${scenario.name}, round ${round + 1}`, result);
  }
}
await twoHeaders.stop();
const referenceHit = poolRuns(referenceRuns);
const referenceTwoHeaders = poolRuns(twoHeaderRuns);
const single: Record<string, LoadResult> = {};
for (const scenario of scenarios) {
  const runs = comparedRuns.get(scenario.name);
  single[scenario.name] = runs ? poolRuns(runs) : await measure(deskgate, scenario);
  log('deskgate', scenario.name, single[scenario.name] as LoadResult);
}
const maxRate = single[hit.name]?.requestsPerSecond ?? 0;
const [halfRate, referenceHalfRate] = await atHalfRate([
  { label: 'deskgate', server: deskgate, maxRate },
  { label: 'reference', server: reference, maxRate: referenceHit.requestsPerSecond },
]);
await reference.stop();

// RSS across a long run of lookups. wrk runs for a time, so the time is set from the max rate, a
// quarter more than it needs (a long run's rate is lower), and runs are added until the count is
// reached (a busy machine slows it further).
const heapBefore = await heapFigures(deskgate.port);
const rssBefore = rssBytes(deskgate.child.pid);
const longRuns: LoadResult[] = [];
for (let done = 0; done < settings.longRequests; ) {
  const run = await runLoad({
    ...loadOptions(deskgate, hit),
    seconds: Math.max(2, Math.ceil((1.25 * (settings.longRequests - done)) / Math.max(1, maxRate))),
  });
  longRuns.push(run);
  done += run.total;
}
const long = poolRuns(longRuns);
const rssAfter = rssBytes(deskgate.child.pid);
const heapAfter = await heapFigures(deskgate.port);
await deskgate.stop();

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

// deskgate with DESKGATE_WORKERS=2 (both cores: wrk shares one with a worker), against one process
// placed the same way: the pinned single process above has a core to itself, which no process on
// a machine shared with its load generator has. Interleaved rounds, as above.
const workers = await startListening(serverArgs, { ...baseEnv, DESKGATE_WORKERS: '2' }, '0,1');
const shared = await startListening(serverArgs, baseEnv, '0,1');
const workersRuns: LoadResult[] = [];
const sharedRuns: LoadResult[] = [];
for (let round = 0; round < settings.rounds; round++) {
  const timing = roundTiming(round);
  sharedRuns.push(await measure(shared, hit, { cores: undefined }, timing));
  workersRuns.push(await measure(workers, hit, { cores: undefined }, timing));
}
await shared.stop();
const oneProcessShared = poolRuns(sharedRuns);
log('1 process', `${hit.name}, on both cores with wrk`, oneProcessShared);
const twoWorkers: Record<string, LoadResult> = { [hit.name]: poolRuns(workersRuns) };
const workersAdd = scenarios[2] as Scenario;
twoWorkers[workersAdd.name] = await measure(workers, workersAdd, { cores: undefined });
for (const [name, result] of Object.entries(twoWorkers)) log('workers=2', name, result);
await workers.stop();

// (d) the same request path on PostgreSQL and MariaDB, when the bench is given their servers.
const otherDatabases: Record<string, Record<string, LoadResult>> = {};
for (const [name, adminUrl] of [
  ['postgres', process.env.DESKGATE_BENCH_POSTGRES_URL ?? process.env.DESKGATE_TEST_POSTGRES_URL],
  ['mysql', process.env.DESKGATE_BENCH_MYSQL_URL ?? process.env.DESKGATE_TEST_MYSQL_URL],
] as const) {
  if (!adminUrl) {
    console.error(`  ${name}: skipped (set DESKGATE_BENCH_${name.toUpperCase()}_URL)`);
    continue;
  }
  const database = await freshDatabase(name, adminUrl);
  try {
    const databaseKey = prepare(database.url);
    const server = await startListening(
      serverArgs,
      { ...baseEnv, DESKGATE_DATABASE_URL: database.url },
      SERVER_CORES,
    );
    const results: Record<string, LoadResult> = {};
    for (const scenario of ON_EVERY_DATABASE.map((i) => scenariosFor(databaseKey)[i] as Scenario)) {
      results[scenario.name] = await measure(server, scenario);
      log(name, scenario.name, results[scenario.name] as LoadResult);
    }
    otherDatabases[name] = results;
    await server.stop();
  } finally {
    await database.drop();
  }
}

/** A server's half-rate look-ups, pooled over its rounds, with the load that made them. */
type HalfRate = LoadResult & { rate: number; connections: number };

/**
 * Topic look-ups at about half of each server's `maxRate`, for latency. wrk has no fixed-rate mode
 * (wrk2 is not packaged), so each connection waits between its requests and the number of
 * connections sets the rate; two calibration runs correct the count for the time each request
 * itself takes. The waits are random (0 to 2 × THINK_MS whole milliseconds, wrk's unit): with one
 * fixed wait the connections stay in step, and every request of a round arrives at once, so the
 * p99 measured that burst's length (about half the wait at half of any server's maximum rate)
 * rather than the server's latency. The servers take turns in rounds, as the CPU comparisons do,
 * and each server's rounds are pooled into one latency histogram: a machine's tail latency drifts
 * within minutes, and measured minutes apart the drift fell on one server only.
 */
async function atHalfRate<Servers extends { label: string; server: Started; maxRate: number }[]>(
  servers: [...Servers],
): Promise<{ [Index in keyof Servers]: HalfRate }> {
  const loads = [];
  for (const { label, server, maxRate } of servers) {
    const connections = await calibrate(server, maxRate / 2);
    loads.push({ label, server, rate: maxRate / 2, connections, runs: [] as LoadResult[] });
  }
  for (let round = 0; round < settings.rounds; round++) {
    for (const { label, server, connections, runs } of loads) {
      const overrides = { connections, thinkMs: THINK_MS, histogram: true };
      const run = await measure(server, hit, overrides, roundTiming(round));
      runs.push(run);
      log(label, `topic lookup at ~half rate (${connections} conns), round ${round + 1}`, run);
    }
  }
  const results = loads.map(({ label, rate, connections, runs }) => {
    const pooled = poolRuns(runs);
    log(label, `topic lookup at ~half rate, ${settings.rounds} rounds pooled`, pooled);
    return { ...pooled, rate: Math.round(rate), connections };
  });
  return results as { [Index in keyof Servers]: HalfRate };
}

/** The number of connections, each waiting THINK_MS on average between requests, that make `targetRate`. */
async function calibrate(server: Started, targetRate: number): Promise<number> {
  let connections = Math.max(1, Math.round((targetRate * THINK_MS) / 1000));
  // Twice: the rate does not grow quite in proportion to the connections (the latency grows too).
  for (let step = 0; step < 2; step++) {
    const calibration = await runLoad({
      ...loadOptions(server, hit, { connections, thinkMs: THINK_MS }),
      seconds: step === 0 ? settings.warmup + 1 : 2,
    });
    connections = Math.max(
      1,
      Math.round((connections * targetRate) / Math.max(1, calibration.requestsPerSecond)),
    );
  }
  return connections;
}

/**
 * deskgate's answer to a topic look-up, for the reference to copy: its headers as a list of names
 * and values (but Date, Connection and Keep-Alive, which node:http adds) and its body's length.
 */
async function fetchTopicAnswer(server: Started): Promise<{ headers: string[]; length: number }> {
  const { status, rawHeaders, length } = await sendOnce(loadOptions(server, hit));
  if (status !== 200) throw new Error(`the topic look-up to copy answered ${status}`);
  const added = new Set(['date', 'connection', 'keep-alive']);
  const headers = rawHeaders.filter(
    (_, i, all) => !added.has((all[i - (i % 2)] as string).toLowerCase()),
  );
  return { headers, length };
}

const results: BenchResults = {
  date: new Date().toISOString(),
  mode: quick ? 'quick' : 'full',
  machine: {
    cpu: cpus()[0]?.model ?? 'unknown CPU',
    cores: cpus().length,
    memoryGiB: Math.round(totalmem() / 2 ** 30),
    node: process.version,
    pinned: canPin,
  },
  settings,
  single,
  halfRate,
  referenceHalfRate,
  reference: referenceHit,
  referenceTwoHeaders,
  driverCeiling: ceiling.perSecond,
  twoWorkers,
  oneProcessShared,
  otherDatabases,
  memory: {
    requests: long.total,
    rssBefore,
    rssAfter,
    growth: (rssAfter - rssBefore) / rssBefore,
    heapBefore,
    heapAfter,
    errors: long.errors,
  },
};
rmSync(work, { recursive: true, force: true });

const outDir = quick
  ? mkdtempSync(join(tmpdir(), 'deskgate-bench-out-'))
  : join(ROOT, 'bench', 'results');
mkdirSync(outDir, { recursive: true });
writeFileSync(join(outDir, 'latest.json'), `${JSON.stringify(results, null, 2)}\n`);
process.stdout.write(writeReport(results, { root: ROOT, writeDocs: !quick }));
console.error(`results: ${join(outDir, 'latest.json')}`);
