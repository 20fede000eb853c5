/**
 * Big unpaged lists against /healthz (issue 32, item 5; docs/PERFORMANCE.md "Big lists"):
 * `npm start`'s server on SQLite with TICKETS tickets of about 4 KB of entries each, then
 * CONCURRENT unpaged `ticket/all` requests in flight at once while /healthz is asked every
 * 100 ms and the server's resident set is read from /proc; then the same clients paging
 * (`limit` 1000, following `next`). Prints one JSON object.
 *
 *   node bench/big-lists.ts [--root DIR] [--tickets 5000] [--concurrent 20] [--max-bytes N]
 *
 * `--root` runs another checkout's server (e.g. an older commit, for the figures before a change).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import Database from 'better-sqlite3';
import { rssBytes, startListening, startScriptArgs } from './processes.ts';

const HERE = join(dirname(fileURLToPath(import.meta.url)), '..');
const { values } = parseArgs({
  options: {
    root: { type: 'string', default: HERE },
    tickets: { type: 'string', default: '5000' },
    concurrent: { type: 'string', default: '20' },
    /** DESKGATE_MAX_ANSWER_BYTES for the server (default: the server's own default). */
    'max-bytes': { type: 'string' },
  },
});
const root = resolve(values.root);
const ticketCount = Number(values.tickets);
const concurrent = Number(values.concurrent);

const dir = mkdtempSync(join(tmpdir(), 'deskgate-big-lists-'));
const file = join(dir, 'deskgate.db');
const env: NodeJS.ProcessEnv = {
  PATH: process.env.PATH,
  DESKGATE_DATABASE_URL: `sqlite:${file}`,
  DESKGATE_LOG_FORMAT: 'json',
  DESKGATE_RATE_LIMIT: '10000000',
  HOST: '127.0.0.1',
  PORT: '0',
  ...(values['max-bytes'] ? { DESKGATE_MAX_ANSWER_BYTES: values['max-bytes'] } : {}),
};
const cli = (args: string[]) =>
  execFileSync(process.execPath, [join(root, 'bin/deskgate.js'), ...args], {
    env,
    encoding: 'utf8',
  });

cli(['migrate']);
const key = (JSON.parse(cli(['keys', 'create', '--name', 'bench', '--json'])) as { key: string })
  .key;

/** Tickets straight into deskgate's own tables (the benchmark's data, not an imitation of a write). */
function seed(): void {
  const db = new Database(file);
  const message = 'The printer on floor 2 smokes again. '.repeat(80); // ~3 KB
  const response = 'We sent a technician; please keep the door open. '.repeat(20); // ~1 KB
  const ticket = db.prepare(
    `INSERT INTO tickets (number, user_id, status_id, priority_id, dept_id, sla_id, topic_id,
       staff_id, subject, source, ip_address, is_overdue, is_answered, due_at, sla_due_at,
       reopened_at, closed_at, last_message_at, last_response_at, last_update_at, created_at,
       updated_at)
     VALUES (?, 1, 1, 2, 1, 0, 0, 0, ?, 'API', '127.0.0.1', 0, 1, NULL, NULL, NULL, NULL, ?, ?,
       ?, ?, ?)`,
  );
  const entry = db.prepare(
    `INSERT INTO ticket_entries (ticket_id, pid, type, user_id, staff_id, poster, title, body,
       format, source, ip_address, created_at)
     VALUES (?, 0, ?, ?, ?, ?, NULL, ?, 'text', 'API', '127.0.0.1', ?)`,
  );
  db.transaction(() => {
    for (let i = 0; i < ticketCount; i++) {
      const at = new Date(Date.UTC(2026, 0, 1) + i * 60_000)
        .toISOString()
        .slice(0, 19)
        .replace('T', ' ');
      const id = Number(
        ticket.run(String(100000 + i), `Printer ${i}`, at, at, at, at, at).lastInsertRowid,
      );
      entry.run(id, 'M', 1, 0, 'Tess Ticket', message, at);
      entry.run(id, 'R', 0, 1, 'Alex Agent', response, at);
    }
  })();
  db.close();
}
seed();

interface Exchange {
  status: number;
  bytes: number;
  ms: number;
  body: string;
}

function exchange(port: number, path: string, body?: unknown): Promise<Exchange> {
  const started = performance.now();
  return new Promise((done, fail) => {
    const text = body === undefined ? undefined : JSON.stringify(body);
    const req = request(
      {
        host: '127.0.0.1',
        port,
        path,
        method: 'GET',
        headers:
          text === undefined
            ? {}
            : {
                apikey: key,
                'content-type': 'application/json',
                'content-length': Buffer.byteLength(text),
              },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          const all = Buffer.concat(chunks);
          done({
            status: res.statusCode ?? 0,
            bytes: all.length,
            ms: performance.now() - started,
            body: all.length < 16_000_000 ? all.toString() : '',
          });
        });
      },
    );
    req.on('error', fail);
    req.end(text);
  });
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))] ?? Number.NaN;
const round = (n: number) => Math.round(n * 10) / 10;

/** Runs `load` while /healthz is asked every 100 ms and the RSS read; their figures. */
async function underLoad(pid: number | undefined, port: number, load: () => Promise<Exchange[]>) {
  const healthz: number[] = [];
  let peakRss = rssBytes(pid);
  let running = true;
  const probing = (async () => {
    while (running) {
      healthz.push((await exchange(port, '/healthz')).ms);
      peakRss = Math.max(peakRss, rssBytes(pid));
      await new Promise((r) => setTimeout(r, 100));
    }
  })();
  const started = performance.now();
  const answers = await load();
  const wall = performance.now() - started;
  running = false;
  await probing;
  const sorted = [...healthz].sort((a, b) => a - b);
  const statuses: Record<string, number> = {};
  for (const a of answers) statuses[a.status] = (statuses[a.status] ?? 0) + 1;
  const refusal = answers.find((a) => a.status !== 200);
  return {
    wallSeconds: round(wall / 1000),
    statuses,
    answerBytesMax: Math.max(...answers.map((a) => a.bytes)),
    slowestAnswerSeconds: round(Math.max(...answers.map((a) => a.ms)) / 1000),
    healthzProbes: healthz.length,
    healthzP50Ms: round(percentile(sorted, 50)),
    healthzP99Ms: round(percentile(sorted, 99)),
    healthzMaxMs: round(sorted.at(-1) ?? Number.NaN),
    peakRssMiB: Math.round(peakRss / 2 ** 20),
    ...(refusal ? { refusal: refusal.body.slice(0, 300) } : {}),
  };
}

const everything = { start_date: '2000-01-01', end_date: '2999-12-31' };
const unpaged = { query: 'ticket', condition: 'all', sort: 'creationDate', parameters: everything };

/** One client reading every ticket page by page; the pages it was answered. */
async function walk(port: number): Promise<Exchange[]> {
  const pages: Exchange[] = [];
  let after: string | undefined;
  do {
    const page = await exchange(port, '/upload/svc_wbs/', {
      ...unpaged,
      parameters: { ...everything, limit: 1000, ...(after ? { after } : {}) },
    });
    pages.push(page);
    after =
      page.status === 200 && page.body !== ''
        ? (JSON.parse(page.body) as { data: { next?: string } }).data.next
        : undefined;
  } while (after !== undefined);
  return pages;
}

const server = await startListening(startScriptArgs(root), env, '0,1');
try {
  const pid = server.child.pid;
  const idle = [];
  for (let i = 0; i < 20; i++) idle.push((await exchange(server.port, '/healthz')).ms);
  const idleRss = rssBytes(pid);
  const results = {
    root,
    tickets: ticketCount,
    concurrent,
    idleHealthzP50Ms: round(
      percentile(
        [...idle].sort((a, b) => a - b),
        50,
      ),
    ),
    idleRssMiB: Math.round(idleRss / 2 ** 20),
    unpaged: await underLoad(pid, server.port, () =>
      Promise.all(
        Array.from({ length: concurrent }, () =>
          exchange(server.port, '/upload/svc_wbs/', unpaged),
        ),
      ),
    ),
    paged: await underLoad(pid, server.port, async () =>
      (await Promise.all(Array.from({ length: concurrent }, () => walk(server.port)))).flat(),
    ),
  };
  console.log(JSON.stringify(results, null, 2));
} finally {
  await server.stop();
  rmSync(dir, { recursive: true, force: true });
}
