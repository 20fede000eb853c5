import { execFile, execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface LoadOptions {
  url: string;
  method: 'GET' | 'POST';
  headers: Record<string, string>;
  /**
   * A constant body, or a template whose `{n}` is replaced by a number unique to the request
   * (per wrk thread and request), for bodies that must not repeat (user creation).
   */
  body: string | { template: string; offset: number };
  connections: number;
  seconds: number;
  /** Milliseconds each connection waits between its requests: a lower, steady rate for latency. */
  thinkMs?: number;
  /** The status every request should get. */
  expectStatus: number;
  /** Processes whose CPU time is charged to the run (the server and its workers). */
  serverPids: number[];
  /** Cores wrk runs on (taskset), e.g. "1". */
  cores?: string;
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
}

/** wrk's Lua hooks: unique bodies, a think time, and a count of unexpected statuses. */
function script(options: LoadOptions): string {
  const headers = Object.entries({ 'content-type': 'application/json', ...options.headers })
    .map(([name, value]) => `wrk.headers[${JSON.stringify(name)}] = ${JSON.stringify(value)}`)
    .join('\n');
  const { body } = options;
  const template = typeof body === 'string' ? body : body.template;
  const offset = typeof body === 'string' ? 0 : body.offset;
  return `
wrk.method = ${JSON.stringify(options.method)}
${headers}
local threads = {}
local next_id = 0
function setup(thread)
  thread:set("id", next_id)
  next_id = next_id + 1
  table.insert(threads, thread)
end
local template = ${JSON.stringify(template)}
local constant = ${typeof body === 'string' ? 'true' : 'false'}
local n = 0
unexpected = 0
function request()
  if constant then return wrk.format(nil, nil, nil, template) end
  n = n + 1
  local unique = ${offset} + id * 100000000 + n
  return wrk.format(nil, nil, nil, (template:gsub("{n}", string.format("%.0f", unique))))
end
function response(status, headers, body)
  if status ~= ${options.expectStatus} then unexpected = unexpected + 1 end
end
${options.thinkMs ? `function delay() return ${options.thinkMs} end` : ''}
function done(summary, latency, requests)
  local bad = 0
  for _, t in ipairs(threads) do bad = bad + t:get("unexpected") end
  local e = summary.errors
  io.write(string.format('{"requests":%d,"micros":%d,"errors":%d,"unexpected":%d,"p50":%d,"p99":%d,"max":%d}\\n',
    summary.requests, summary.duration, e.connect + e.read + e.write + e.timeout, bad,
    latency:percentile(50), latency:percentile(99), latency.max))
end
`;
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
  const threads = Math.min(2, options.connections);
  const args = [
    '-t',
    String(threads),
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
    unexpected: number;
    p50: number;
    p99: number;
    max: number;
  };
  const seconds = stats.micros / 1e6;
  return {
    requestsPerSecond: stats.requests / seconds,
    p50: stats.p50 / 1000,
    p99: stats.p99 / 1000,
    max: stats.max / 1000,
    errors: stats.errors + stats.unexpected,
    total: stats.requests,
    cpuMicrosPerRequest: ((serverTicks / TICKS_PER_SECOND) * 1e6) / Math.max(1, stats.requests),
    generatorCoreShare: generatorTicks / TICKS_PER_SECOND / seconds,
  };
}

/**
 * Runs of one scenario taken apart in time, as one result: requests, rate and CPU per request
 * over all of them, the median of their p50s, the worst of their p99s and maxima.
 */
export function poolRuns(runs: LoadResult[]): LoadResult {
  const total = runs.reduce((sum, r) => sum + r.total, 0);
  const seconds = runs.reduce((sum, r) => sum + r.total / Math.max(1e-9, r.requestsPerSecond), 0);
  const p50s = runs.map((r) => r.p50).sort((a, b) => a - b);
  return {
    requestsPerSecond: total / Math.max(1e-9, seconds),
    p50: p50s[Math.floor(p50s.length / 2)] ?? Number.NaN,
    p99: Math.max(...runs.map((r) => r.p99)),
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
