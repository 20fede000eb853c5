/**
 * The scale scenario (issue 34, item 4): each read at a small and a large size, on each layout,
 * with wrk: p50, p99 and server CPU per request, first and deep pages included.
 *
 *   node bench/scale.ts [--tickets 1000000] [--small 1000] [--seconds 5] [--connections 1]
 *     [--layouts postgres,mysql,osticket,sqlite] [--quick]
 *
 * PostgreSQL and MariaDB come from DESKGATE_BENCH_*_URL or DESKGATE_TEST_*_URL, as in run.ts;
 * osTicket mode is MariaDB with osTicket 1.18.1's schema (shared/osticket), its three read
 * indexes added (decision 333). Each database is made, filled by scale-data.ts and dropped.
 * Prints a table and writes bench/results/scale.json. Run it on a quiet machine.
 */
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { type Kysely, sql } from 'kysely';
import { createConnection } from 'mysql2/promise';
import { migrateToLatest } from '../src/data/migrations/migrate.ts';
import { DEFAULT_POOL, openDatabase } from '../src/data/open-database.ts';
import { addIndexSql, OSTICKET_READ_INDEXES } from '../src/data/osticket/osticket-indexes.ts';
import { encodeCreatedCursor } from '../src/operations/created-cursor.ts';
import { freshDatabase } from './databases.ts';
import { hasWrk, type LoadResult, runLoad } from './load.ts';
import { startListening, startScriptArgs } from './processes.ts';
import { fillOsticketSchema, fillOwnSchema } from './scale-data.ts';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
type Layout = 'postgres' | 'mysql' | 'osticket' | 'sqlite';

const { values } = parseArgs({
  options: {
    tickets: { type: 'string', default: '1000000' },
    small: { type: 'string', default: '1000' },
    seconds: { type: 'string', default: '5' },
    layouts: { type: 'string', default: 'postgres,mysql,osticket,sqlite' },
    connections: { type: 'string', default: '1' },
    quick: { type: 'boolean', default: false },
  },
});
const quick = values.quick === true;
const sizes = quick ? [200, 2_000] : [Number(values.small), Number(values.tickets)];
const seconds = quick ? 1 : Number(values.seconds);
const layouts = String(values.layouts).split(',') as Layout[];
/** One client by default: the p50 is then a read's own time, not a queue's. */
const connections = Number(values.connections);

if (!hasWrk()) {
  console.error('bench/scale.ts needs wrk (apt-get install wrk)');
  process.exit(1);
}

const postgresUrl =
  process.env.DESKGATE_BENCH_POSTGRES_URL ?? process.env.DESKGATE_TEST_POSTGRES_URL;
const mysqlUrl = process.env.DESKGATE_BENCH_MYSQL_URL ?? process.env.DESKGATE_TEST_MYSQL_URL;

interface Prepared {
  url: string;
  env: Record<string, string>;
  key: string;
  drop(): Promise<void>;
}

function cli(args: string[], env: Record<string, string>): string {
  return execFileSync(process.execPath, [join(ROOT, 'bin/deskgate.js'), ...args], {
    env: { PATH: process.env.PATH, DESKGATE_LOG_FORMAT: 'json', ...env },
    encoding: 'utf8',
  });
}

/** osTicket 1.18.1's schema and seed, as osTicket's installer leaves them, in a fresh database. */
async function osticketDatabase(adminUrl: string): Promise<Prepared> {
  const dir = [join(ROOT, '..', 'shared', 'osticket'), join(ROOT, '..', '..', 'shared', 'osticket')]
    .concat(process.env.DESKGATE_TEST_OSTICKET_DIR ?? [])
    .find((candidate) => existsSync(join(candidate, 'schema-1.18.1.sql')));
  if (!dir) throw new Error("osTicket's schema is not at ../shared/osticket");
  const name = `osticket_bench_${randomBytes(4).toString('hex')}`;
  const admin = await createConnection(adminUrl);
  await admin.query(`create database ${name} character set utf8mb3 collate utf8mb3_general_ci`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const connection = await createConnection({ uri: url.href, multipleStatements: true });
  await connection.query(readFileSync(join(dir, 'schema-1.18.1.sql'), 'utf8'));
  await connection.query(readFileSync(join(dir, 'seed-1.18.1.sql'), 'utf8'));
  const key = randomBytes(16).toString('hex').toUpperCase();
  await connection.query(
    `insert into ost_api_key (isactive, ipaddr, apikey, can_create_tickets, can_exec_cron, notes, updated, created)
     values (1, '127.0.0.1', ?, 1, 1, 'bench', now(), now())`,
    [key],
  );
  await connection.end();
  return {
    url: url.href,
    env: { DESKGATE_SCHEMA: 'osticket', DESKGATE_TABLE_PREFIX: 'ost_' },
    key,
    async drop() {
      const cleanup = await createConnection(adminUrl);
      await cleanup.query(`drop database if exists ${name}`);
      await cleanup.end();
    },
  };
}

async function prepare(layout: Layout, tickets: number): Promise<Prepared> {
  if (layout === 'osticket') {
    if (!mysqlUrl) throw new Error('osTicket mode needs DESKGATE_BENCH_MYSQL_URL');
    const prepared = await osticketDatabase(mysqlUrl);
    const { db } = openDatabase<object>(
      prepared.url,
      { ...DEFAULT_POOL, queryTimeoutMs: 3_600_000 },
      {
        serverTimeZone: true,
      },
    );
    try {
      await fillOsticketSchema(db, { tickets });
      for (const index of OSTICKET_READ_INDEXES)
        await sql.raw(addIndexSql('ost_', index)).execute(db);
    } finally {
      await db.destroy();
    }
    return prepared;
  }
  let url: string;
  let drop: () => Promise<void>;
  if (layout === 'sqlite') {
    const dir = mkdtempSync(join(tmpdir(), 'deskgate-scale-'));
    url = `sqlite:${join(dir, 'scale.db')}`;
    drop = async () => rmSync(dir, { recursive: true, force: true });
  } else {
    const adminUrl = layout === 'postgres' ? postgresUrl : mysqlUrl;
    if (!adminUrl) throw new Error(`${layout} needs DESKGATE_BENCH_${layout.toUpperCase()}_URL`);
    const database = await freshDatabase(layout, adminUrl);
    url = database.url;
    drop = () => database.drop();
  }
  const { db, dialect } = openDatabase<object>(url, { ...DEFAULT_POOL, queryTimeoutMs: 3_600_000 });
  try {
    await migrateToLatest(db, dialect, 'deskgate');
    await fillOwnSchema(db, dialect.name, { tickets });
  } finally {
    await db.destroy();
  }
  const env = { DESKGATE_DATABASE_URL: url };
  const key = (
    JSON.parse(cli(['keys', 'create', '--name', 'bench', '--json'], env)) as { key: string }
  ).key;
  return { url, env: {}, key, drop };
}

/**
 * The (time, id) 80 % into the list ordered by `column`, as the `after` a caller would send; or,
 * in a list too short for a full page after that point (200 users at the small size), the last
 * full page's, so that both sizes answer 100 rows.
 */
async function deepCursor(
  db: Kysely<object>,
  table: string,
  column: string,
  id: string,
  count: number,
): Promise<string> {
  const { rows } = await sql<{
    t: string;
    id: number;
  }>`select ${sql.ref(column)} as t, ${sql.ref(id)} as id
    from ${sql.table(table)} order by ${sql.ref(column)}, ${sql.ref(id)}
    limit 1 offset ${Math.max(0, Math.min(Math.floor(count * 0.8), count - 101))}`.execute(db);
  const row = rows[0];
  if (!row) throw new Error(`no row 80 % into ${table}`);
  return encodeCreatedCursor({ created: String(row.t), id: Number(row.id) });
}

interface Read {
  name: string;
  body: unknown;
}

async function readsFor(layout: Layout, url: string, tickets: number): Promise<Read[]> {
  const osticket = layout === 'osticket';
  const { db } = openDatabase<object>(url, DEFAULT_POOL, { serverTimeZone: osticket });
  const users = Math.max(1, Math.floor(tickets / 5));
  const range = { start_date: '2000-01-01', end_date: '2999-12-31', limit: 100 };
  try {
    const t = osticket ? 'ost_ticket' : 'tickets';
    const tid = osticket ? 'ticket_id' : 'id';
    const u = osticket ? 'ost_user' : 'users';
    const created = osticket ? 'created' : 'created_at';
    const updated = osticket ? 'lastupdate' : 'last_update_at';
    const middle = Math.ceil(tickets / 2);
    return [
      {
        name: 'ticket/all by creation, first page',
        body: { query: 'ticket', condition: 'all', sort: 'creationDate', parameters: range },
      },
      {
        name: 'ticket/all by creation, 80 % in',
        body: {
          query: 'ticket',
          condition: 'all',
          sort: 'creationDate',
          parameters: { ...range, after: await deepCursor(db, t, created, tid, tickets) },
        },
      },
      {
        name: 'ticket/all by last update, first page',
        body: { query: 'ticket', condition: 'all', sort: 'lastUpdateDate', parameters: range },
      },
      {
        name: 'ticket/all by last update, 80 % in',
        body: {
          query: 'ticket',
          condition: 'all',
          sort: 'lastUpdateDate',
          parameters: { ...range, after: await deepCursor(db, t, updated, tid, tickets) },
        },
      },
      {
        name: 'ticket/specific by id',
        body: { query: 'ticket', condition: 'specific', parameters: { id: middle } },
      },
      {
        name: 'ticket/specific by number',
        body: {
          query: 'ticket',
          condition: 'specific',
          parameters: { number: String(middle).padStart(7, '0') },
        },
      },
      {
        name: 'user/all, first page',
        body: { query: 'user', condition: 'all', sort: 'creationDate', parameters: range },
      },
      {
        name: 'user/all, 80 % in',
        body: {
          query: 'user',
          condition: 'all',
          sort: 'creationDate',
          parameters: { ...range, after: await deepCursor(db, u, created, 'id', users) },
        },
      },
      {
        name: 'user/specific by email',
        body: {
          query: 'user',
          condition: 'specific',
          sort: 'email',
          parameters: { email: `user${Math.ceil(users / 2)}@example.com` },
        },
      },
    ];
  } finally {
    await db.destroy();
  }
}

type Figures = Pick<
  LoadResult,
  'p50' | 'p99' | 'cpuMicrosPerRequest' | 'requestsPerSecond' | 'errors'
>;
const results: Record<string, Record<string, Record<number, Figures>>> = {};

for (const layout of layouts) {
  for (const tickets of sizes) {
    const started = performance.now();
    const prepared = await prepare(layout, tickets);
    console.error(
      `${layout} ${tickets}: filled in ${((performance.now() - started) / 1000).toFixed(0)} s`,
    );
    try {
      const server = await startListening(
        startScriptArgs(ROOT),
        {
          PATH: process.env.PATH,
          NODE_ENV: 'production',
          HOST: '127.0.0.1',
          PORT: '0',
          DESKGATE_LOG_FORMAT: 'json',
          DESKGATE_RATE_LIMIT: '10000000',
          DESKGATE_DATABASE_URL: prepared.url,
          ...prepared.env,
        },
        '0',
      );
      try {
        for (const read of await readsFor(layout, prepared.url, tickets)) {
          const result = await runLoad({
            url: `http://127.0.0.1:${server.port}/upload/svc_wbs/`,
            method: 'GET',
            headers: { apikey: prepared.key },
            body: JSON.stringify(read.body),
            connections,
            seconds,
            expectStatus: 200,
            serverPids: server.child.pid ? [server.child.pid] : [],
            cores: '1',
          });
          const byRead = results[layout] ?? {};
          results[layout] = byRead;
          const bySize = byRead[read.name] ?? {};
          byRead[read.name] = bySize;
          bySize[tickets] = {
            p50: result.p50,
            p99: result.p99,
            cpuMicrosPerRequest: result.cpuMicrosPerRequest,
            requestsPerSecond: result.requestsPerSecond,
            errors: result.errors,
          };
          console.error(
            `  ${layout} ${tickets} ${read.name}: p50 ${result.p50.toFixed(1)} ms, p99 ${result.p99.toFixed(1)} ms, ${(result.cpuMicrosPerRequest / 1000).toFixed(2)} ms CPU`,
          );
        }
      } finally {
        await server.stop();
      }
    } finally {
      await prepared.drop();
    }
  }
}

const [small, large] = sizes as [number, number];
const lines = [
  `| Layout | Read | p50 at ${small} | p50 at ${large} | ratio | p99 at ${large} | CPU/request at ${large} |`,
  '| --- | --- | ---: | ---: | ---: | ---: | ---: |',
];
for (const [layout, reads] of Object.entries(results)) {
  for (const [read, bySize] of Object.entries(reads)) {
    const a = bySize[small];
    const b = bySize[large];
    if (!a || !b) continue;
    lines.push(
      `| ${layout} | ${read} | ${a.p50.toFixed(1)} ms | ${b.p50.toFixed(1)} ms | ${(b.p50 / a.p50).toFixed(1)}× | ${b.p99.toFixed(1)} ms | ${(b.cpuMicrosPerRequest / 1000).toFixed(2)} ms |`,
    );
  }
}
process.stdout.write(`${lines.join('\n')}\n`);
const out = quick
  ? mkdtempSync(join(tmpdir(), 'deskgate-scale-results-'))
  : join(ROOT, 'bench', 'results');
mkdirSync(out, { recursive: true });
writeFileSync(join(out, 'scale.json'), `${JSON.stringify({ sizes, seconds, results }, null, 2)}\n`);
