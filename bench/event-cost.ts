/**
 * What a change's event row costs (issue 36, item 6): the same ticket writes on this checkout and
 * on another one (`--other`, e.g. a temporary worktree whose writes append no event), each server
 * on a database of its own, in interleaved rounds, so that the machine's drift falls on both.
 *
 *   node bench/event-cost.ts --other DIR [--layouts sqlite,postgres,mysql] [--rounds 3]
 *     [--seconds 5] [--connections 16]
 *
 * `--scenarios` picks from reply, status and events (the feed's first page of 100); `--tickets`
 * (at least 101) how many tickets each database starts with, two events each.
 * Prints, per layout and scenario, req/s and server CPU µs per request of each checkout, pooled
 * over its rounds, and the difference in CPU per request; writes bench/results/event-cost.json.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { freshDatabase } from './databases.ts';
import { type LoadOptions, type LoadResult, poolRuns, processTree, runLoad } from './load.ts';
import { canPin, type Started, startListening, startScriptArgs } from './processes.ts';
import { CHANGED_TICKETS, TICKET_ADD_BODY, ticketWriteBody } from './ticket-writes.ts';

const HERE = join(dirname(fileURLToPath(import.meta.url)), '..');
type Layout = 'sqlite' | 'postgres' | 'mysql';

const { values } = parseArgs({
  options: {
    other: { type: 'string' },
    layouts: { type: 'string', default: 'sqlite,postgres,mysql' },
    rounds: { type: 'string', default: '3' },
    seconds: { type: 'string', default: '5' },
    connections: { type: 'string', default: '16' },
    scenarios: { type: 'string', default: 'reply,status' },
    tickets: { type: 'string', default: '101' },
  },
});
if (!values.other) {
  console.error('bench/event-cost.ts needs --other DIR (the checkout to compare with)');
  process.exit(1);
}
const roots = { this: HERE, other: resolve(values.other) };
const rounds = Number(values.rounds);
const seconds = Number(values.seconds);
const connections = Number(values.connections);
const layouts = String(values.layouts).split(',') as Layout[];
const adminUrls: Record<Exclude<Layout, 'sqlite'>, string | undefined> = {
  postgres: process.env.DESKGATE_BENCH_POSTGRES_URL ?? process.env.DESKGATE_TEST_POSTGRES_URL,
  mysql: process.env.DESKGATE_BENCH_MYSQL_URL ?? process.env.DESKGATE_TEST_MYSQL_URL,
};

const baseEnv: NodeJS.ProcessEnv = {
  PATH: process.env.PATH,
  NODE_ENV: 'production',
  DESKGATE_LOG_FORMAT: 'json',
  DESKGATE_LOG_LEVEL: 'info',
  DESKGATE_RATE_LIMIT: '10000000',
  HOST: '127.0.0.1',
  PORT: '0',
};

function cli(root: string, args: string[], env: NodeJS.ProcessEnv): string {
  return execFileSync(process.execPath, [join(root, 'bin/deskgate.js'), ...args], {
    env,
    encoding: 'utf8',
  });
}

const ALL_SCENARIOS: Record<
  string,
  { name: string; method: 'GET' | 'POST'; body: LoadOptions['body'] }
> = {
  reply: {
    name: 'ticket reply',
    method: 'POST',
    body: ticketWriteBody('reply', { body: 'A technician is on the way.' }),
  },
  status: {
    name: 'ticket status (close, reopen)',
    method: 'POST',
    body: ticketWriteBody('status', { status_id: '{status}' }, { status: ['3', '1'] }),
  },
  // The feed's first page, as the bench's scenario: the key has no notes grant (a filtered page).
  events: {
    name: 'events since (a page of 100)',
    method: 'GET',
    body: JSON.stringify({
      query: 'events',
      condition: 'since',
      parameters: { start_time: '2000-01-01T00:00:00Z', limit: 100 },
    }),
  },
};
const SCENARIOS = String(values.scenarios)
  .split(',')
  .map((name) => {
    const scenario = ALL_SCENARIOS[name];
    if (!scenario) throw new Error(`--scenarios: no ${name} (${Object.keys(ALL_SCENARIOS)})`);
    return scenario;
  });

interface Server {
  started: Started;
  key: string;
  drop(): Promise<void>;
}

async function post(server: Started, key: string, body: unknown): Promise<void> {
  const response = await fetch(`http://127.0.0.1:${server.port}/upload/svc_wbs/`, {
    method: 'POST',
    headers: { apikey: key, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  await response.arrayBuffer();
  if (response.status !== 200)
    throw new Error(`${JSON.stringify(body)} answered ${response.status}`);
}

/** A database of its own, migrated by `root`'s CLI, one user, agent 1, and `--tickets` tickets. */
async function startServer(root: string, layout: Layout): Promise<Server> {
  let url: string;
  let drop: () => Promise<void>;
  if (layout === 'sqlite') {
    const dir = mkdtempSync(join(tmpdir(), 'deskgate-event-cost-'));
    url = `sqlite:${join(dir, 'bench.db')}`;
    drop = async () => rmSync(dir, { recursive: true, force: true });
  } else {
    const adminUrl = adminUrls[layout];
    if (!adminUrl) throw new Error(`${layout} needs DESKGATE_BENCH_${layout.toUpperCase()}_URL`);
    const database = await freshDatabase(layout, adminUrl);
    url = database.url;
    drop = () => database.drop();
  }
  const env = { ...baseEnv, DESKGATE_DATABASE_URL: url };
  cli(root, ['migrate'], env);
  cli(
    root,
    ['agents', 'add', '--username', 'bench', '--name', 'Bench Agent', '--email', 'a@b.example'],
    env,
  );
  const { key } = JSON.parse(
    cli(root, ['keys', 'create', '--name', 'bench', '--any-agent', '--json'], env),
  ) as { key: string };
  const started = await startListening(startScriptArgs(root), env, '0');
  try {
    await seed(started, key);
  } catch (error) {
    await started.stop();
    throw error;
  }
  return { started, key, drop };
}

async function seed(started: Started, key: string): Promise<void> {
  await post(started, key, {
    query: 'user',
    condition: 'add',
    parameters: {
      name: 'Bench User',
      email: 'user@bench.example',
      password: 'bench password',
      timezone: 'UTC',
      phone: 351210000000,
      org_id: 0,
      default_email_id: 0,
      status: 1,
    },
  });
  for (let made = 0; made < Math.max(CHANGED_TICKETS.length, Number(values.tickets)); made += 1) {
    await post(started, key, JSON.parse(TICKET_ADD_BODY));
  }
}

function load(
  server: Server,
  { method, body }: (typeof SCENARIOS)[number],
  run: number,
): Promise<LoadResult> {
  return runLoad({
    url: `http://127.0.0.1:${server.started.port}/upload/svc_wbs/`,
    method,
    headers: { apikey: server.key },
    body: typeof body === 'string' ? body : { ...body, offset: run * 1_000_000 },
    connections,
    seconds,
    expectStatus: 200,
    serverPids: processTree(server.started.child.pid ?? 0),
    cores: canPin ? '1' : undefined,
  });
}

const report: Record<string, unknown>[] = [];
const fmt = (n: number, digits = 0) =>
  n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });
for (const layout of layouts) {
  const first = await startServer(roots.this, layout);
  const second = await startServer(roots.other, layout).catch(async (error: unknown) => {
    await first.started.stop();
    await first.drop();
    throw error;
  });
  const servers = { this: first, other: second };
  try {
    let run = 0;
    for (const scenario of SCENARIOS) {
      // A warm-up each, then rounds alternating which checkout goes first.
      await load(servers.this, scenario, ++run);
      await load(servers.other, scenario, ++run);
      const runs: Record<'this' | 'other', LoadResult[]> = { this: [], other: [] };
      for (let round = 0; round < rounds; round += 1) {
        const order = round % 2 === 0 ? (['this', 'other'] as const) : (['other', 'this'] as const);
        for (const which of order) runs[which].push(await load(servers[which], scenario, ++run));
      }
      const pooled = { this: poolRuns(runs.this), other: poolRuns(runs.other) };
      const extra = pooled.this.cpuMicrosPerRequest / pooled.other.cpuMicrosPerRequest - 1;
      const perRound = runs.this.map(
        (r, i) => r.cpuMicrosPerRequest / (runs.other[i]?.cpuMicrosPerRequest ?? Number.NaN) - 1,
      );
      const sorted = [...perRound].sort((a, b) => a - b);
      const median = sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
      const errors = pooled.this.errors + pooled.other.errors;
      console.log(
        `${layout} ${scenario.name}: this ${fmt(pooled.this.requestsPerSecond)} req/s ${fmt(pooled.this.cpuMicrosPerRequest, 1)} µs CPU/req; ` +
          `other ${fmt(pooled.other.requestsPerSecond)} req/s ${fmt(pooled.other.cpuMicrosPerRequest, 1)} µs; ` +
          `CPU ${extra >= 0 ? '+' : ''}${fmt(extra * 100, 1)} % (rounds ${perRound.map((r) => `${fmt(r * 100, 1)} %`).join(', ')}; median ${fmt(median * 100, 1)} %)${errors ? `; ${errors} errors` : ''}`,
      );
      report.push({
        layout,
        scenario: scenario.name,
        this: pooled.this,
        other: pooled.other,
        extra,
        perRound,
      });
    }
  } finally {
    for (const server of Object.values(servers)) {
      await server.started.stop();
      await server.drop();
    }
  }
}
mkdirSync(join(HERE, 'bench', 'results'), { recursive: true });
writeFileSync(
  join(HERE, 'bench', 'results', 'event-cost.json'),
  `${JSON.stringify({ at: new Date().toISOString(), other: roots.other, rounds, seconds, connections, report }, null, 2)}\n`,
);
