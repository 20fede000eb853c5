import { execFile, execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface LoadOptions {
  url: string;
  method: 'GET' | 'POST';
  headers: Record<string, string>;
  /**
   * A constant body, or a template whose `{n}` is replaced by a number unique to the request
   * (per request), for bodies that must not repeat (user creation), and each `{name}` of
   * `cycles` by its values in turn (the request's number modulo their count: ticket changes
   * spread over tickets, alternating a status).
   */
  body: string | { template: string; offset: number; cycles?: Record<string, string[]> };
  connections: number;
  seconds: number;
  /**
   * Mean milliseconds each connection waits between its requests, for a lower rate: random whole
   * milliseconds from 0 to twice this, so that the connections do not send in step.
   */
  thinkMs?: number;
  /** The status every request should get. */
  expectStatus: number;
  /** Processes whose CPU time is charged to the run (the server and its workers). */
  serverPids: number[];
  /** Cores wrk runs on (taskset), e.g. "1". */
  cores?: string;
  /** Also return wrk's latency histogram, so that runs pooled by `poolRuns` give a true p99. */
  histogram?: boolean;
}

export interface LoadResult {
  requestsPerSecond: number;
  p50: number;
  p99: number;
  max: number;
  /** Connection errors, timeouts, and responses with another status than expected. */
  errors: number;
  total: number;
  /** Server CPU time (user + system, every listed process) per request, in microseconds. */
  cpuMicrosPerRequest: number;
  /** Share of one core the load generator used: near 1 means it, not the server, was the limit. */
  generatorCoreShare: number;
  /** With `histogram`: each latency wrk saw, in microseconds, and how many requests had it. */
  latencies?: [number, number][];
}

/**
 * wrk's Lua script. As light as wrk allows, since wrk shares the machine with the server: a
 * constant body is formatted once (`wrk.body`), and there is no `response()` hook (with one, wrk
 * copies every answer's headers and body into Lua, which cost it a third more CPU and took
 * the second core from DESKGATE_WORKERS=2). Statuses are checked by wrk's own count of answers
 * at or above 400 and by `sendOnce` before the run.
 */
function script(options: LoadOptions): string {
  const headers = Object.entries({ 'content-type': 'application/json', ...options.headers })
    .map(([name, value]) => `wrk.headers[${JSON.stringify(name)}] = ${JSON.stringify(value)}`)
    .join('\n');
  const { body } = options;
  const unique =
    typeof body === 'string'
      ? `wrk.body = ${JSON.stringify(body)}`
      : `local template = ${JSON.stringify(body.template)}
local cycles = {${Object.entries(body.cycles ?? {})
          .map(
            ([name, values]) =>
              `[${JSON.stringify(`{${name}}`)}] = {${values.map((v) => JSON.stringify(v)).join(', ')}}`,
          )
          .join(', ')}}
local n = 0
function request()
  n = n + 1
  local text = template:gsub("{n}", string.format("%.0f", ${body.offset} + n))
  for name, values in pairs(cycles) do
    text = text:gsub(name, values[(n % #values) + 1])
  end
  return wrk.format(nil, nil, nil, text)
end`;
  return `
wrk.method = ${JSON.stringify(options.method)}
${headers}
${unique}
${options.thinkMs ? `function delay() return math.random(0, ${2 * options.thinkMs}) end` : ''}
function done(summary, latency, requests)
  local e = summary.errors
  local histogram = {}
  ${options.histogram ? 'for i = 1, #latency do histogram[i] = string.format("[%d,%d]", latency(i)) end' : ''}
  io.write(string.format('{"requests":%d,"micros":%d,"errors":%d,"atLeast400":%d,"p50":%d,"p99":%d,"max":%d,"latencies":[%s]}\\n',
    summary.requests, summary.duration, e.connect + e.read + e.write + e.timeout, e.status,
    latency:percentile(50), latency:percentile(99), latency.max, table.concat(histogram, ",")))
end
`;
}

/** Far above the numbers a wrk run gives its unique bodies (1, 2, 3, …). */
const PROBE_NUMBER = 9_000_000_000;

/** What one request sent by `sendOnce` was answered with. */
export interface SingleAnswer {
  status: number;
  /** Header names and values in turn, as they came. */
  rawHeaders: string[];
  /** The body's length in bytes. */
  length: number;
}

/**
 * Sends the scenario's request once, outside wrk: before each run, to check the exact status (wrk
 * only counts answers at or above 400, so this is what tells a 200 from a 204), and to copy
 * deskgate's answer for the reference. A unique body gets a number no wrk run uses.
 */
export function sendOnce(
  options: Pick<LoadOptions, 'url' | 'method' | 'headers' | 'body'>,
): Promise<SingleAnswer> {
  const body =
    typeof options.body === 'string'
      ? options.body
      : Object.entries(options.body.cycles ?? {}).reduce(
          (text, [name, values]) => text.replaceAll(`{${name}}`, values[0] ?? ''),
          options.body.template.replaceAll('{n}', String(options.body.offset + PROBE_NUMBER)),
        );
  return new Promise((resolve, reject) => {
    const req = request(
      options.url,
      {
        method: options.method,
        // node:http sends a GET body only with an explicit length.
        headers: {
          'content-type': 'application/json',
          ...options.headers,
          'content-length': Buffer.byteLength(body),
        },
      },
      (res) => {
        let length = 0;
        res.on('data', (chunk: Buffer) => {
          length += chunk.length;
        });
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, rawHeaders: res.rawHeaders, length }),
        );
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/** Clock ticks of CPU (user + system) a process has used, from /proc (Linux). */
function cpuTicks(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return Number(fields[11]) + Number(fields[12]);
  } catch {
    return Number.NaN;
  }
}

/** CPU ticks of this process's waited-for children (wrk, once it has exited). */
function childTicks(): number {
  const stat = readFileSync('/proc/self/stat', 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return Number(fields[13]) + Number(fields[14]);
}

const TICKS_PER_SECOND = Number(execFileSync('getconf', ['CLK_TCK']).toString().trim()) || 100;

/** The server's process and, for node:cluster, its workers (its direct children). */
export function processTree(pid: number): number[] {
  try {
    const children = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8')
      .trim()
      .split(/\s+/)
      .filter(Boolean)
      .map(Number);
    return [pid, ...children];
  } catch {
    return [pid];
  }
}

/**
 * One wrk run: keep-alive connections, no pipelining, latency in microseconds. wrk is written in
 * C and runs on its own core, so the figures measure the server rather than the generator (the
 * report also says how busy wrk was).
 */
export async function runLoad(options: LoadOptions): Promise<LoadResult> {
  const scriptPath = join(mkdtempSync(join(tmpdir(), 'deskgate-wrk-')), 'load.lua');
  writeFileSync(scriptPath, script(options));
  const { status } = await sendOnce(options);
  if (status !== options.expectStatus)
    throw new Error(`expected ${options.expectStatus} from ${options.url}, got ${status}`);
  const args = [
    // One thread: pinned to one core, a second one only takes turns with the first; on cores
    // shared with the server (DESKGATE_WORKERS=2), it competes with the workers. One thread
    // drives the bare node:http reference at about half a core.
    '-t',
    '1',
    '-c',
    String(options.connections),
    '-d',
    `${options.seconds}s`,
    '--timeout',
    '5s',
    '-s',
    scriptPath,
    options.url,
  ];
  const [command, argv] = options.cores
    ? ['taskset', ['-c', options.cores, 'wrk', ...args]]
    : ['wrk', args];
  const serverBefore = options.serverPids.reduce((sum, pid) => sum + cpuTicks(pid), 0);
  const generatorBefore = childTicks();
  const output = await new Promise<string>((resolve, reject) => {
    execFile(command, argv as string[], { encoding: 'utf8' }, (error, stdout, stderr) => {
      if (error) reject(new Error(`wrk failed: ${stderr || error.message}`));
      else resolve(stdout);
    });
  });
  const serverTicks =
    options.serverPids.reduce((sum, pid) => sum + cpuTicks(pid), 0) - serverBefore;
  const generatorTicks = childTicks() - generatorBefore;
  const line = output.trim().split('\n').at(-1) ?? '{}';
  const stats = JSON.parse(line) as {
    requests: number;
    micros: number;
    errors: number;
    atLeast400: number;
    p50: number;
    p99: number;
    max: number;
    latencies: [number, number][];
  };
  const seconds = stats.micros / 1e6;
  const unexpected =
    options.expectStatus < 400 ? stats.atLeast400 : stats.requests - stats.atLeast400;
  return {
    requestsPerSecond: stats.requests / seconds,
    p50: stats.p50 / 1000,
    p99: stats.p99 / 1000,
    max: stats.max / 1000,
    errors: stats.errors + unexpected,
    total: stats.requests,
    cpuMicrosPerRequest: ((serverTicks / TICKS_PER_SECOND) * 1e6) / Math.max(1, stats.requests),
    generatorCoreShare: generatorTicks / TICKS_PER_SECOND / seconds,
    ...(options.histogram ? { latencies: stats.latencies } : {}),
  };
}

/** The latency, in ms, that a share `q` of the requests of every run stayed within. */
function pooledPercentile(histograms: [number, number][][], q: number): number {
  const merged = histograms.flat().sort((a, b) => a[0] - b[0]);
  const total = merged.reduce((sum, [, count]) => sum + count, 0);
  let seen = 0;
  for (const [micros, count] of merged) {
    seen += count;
    if (seen >= q * total) return micros / 1000;
  }
  return Number.NaN;
}

/**
 * Runs of one scenario taken apart in time, as one result: requests, rate and CPU per request
 * over all of them; p50 and p99 over all their requests when every run has its histogram, else the
 * median of their p50s and the worst of their p99s; the worst maximum.
 */
export function poolRuns(runs: LoadResult[]): LoadResult {
  const total = runs.reduce((sum, r) => sum + r.total, 0);
  const seconds = runs.reduce((sum, r) => sum + r.total / Math.max(1e-9, r.requestsPerSecond), 0);
  const p50s = runs.map((r) => r.p50).sort((a, b) => a - b);
  const histograms = runs.flatMap((r) => (r.latencies ? [r.latencies] : []));
  const pooled = histograms.length === runs.length;
  return {
    requestsPerSecond: total / Math.max(1e-9, seconds),
    p50: pooled
      ? pooledPercentile(histograms, 0.5)
      : (p50s[Math.floor(p50s.length / 2)] ?? Number.NaN),
    p99: pooled ? pooledPercentile(histograms, 0.99) : Math.max(...runs.map((r) => r.p99)),
    max: Math.max(...runs.map((r) => r.max)),
    errors: runs.reduce((sum, r) => sum + r.errors, 0),
    total,
    cpuMicrosPerRequest:
      runs.reduce((sum, r) => sum + r.cpuMicrosPerRequest * r.total, 0) / Math.max(1, total),
    generatorCoreShare:
      runs.reduce((sum, r) => sum + r.generatorCoreShare * (r.total / r.requestsPerSecond), 0) /
      Math.max(1e-9, seconds),
  };
}

/** Whether wrk is installed (Debian: `apt-get install wrk`). */
export function hasWrk(): boolean {
  try {
    execFileSync('wrk', ['--version'], { stdio: 'ignore' });
    return true;
  } catch (error) {
    // wrk --version exits 1 after printing its version.
    return (error as { status?: number }).status === 1;
  }
}
