import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * The arguments `npm start` gives node, with the script made absolute: the bench runs the server
 * as the project runs it, V8 settings included (docs/decisions/096-young-generation-size.md).
 */
export function startScriptArgs(root: string): string[] {
  const { scripts } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
    scripts: { start: string };
  };
  // `exec node …`: npm start execs node, so that SIGTERM reaches the server.
  const [command, ...args] = scripts.start.replace(/^exec\s+/, '').split(/\s+/);
  if (command !== 'node')
    throw new Error(`package.json's start script does not run node: ${scripts.start}`);
  return args.map((arg) => (arg.endsWith('.js') ? join(root, arg) : arg));
}

/** Whether `taskset` can pin processes to cores here (it needs two cores to be worth it). */
export const canPin = (() => {
  try {
    execFileSync('taskset', ['-p', String(process.pid)], { stdio: 'ignore' });
    return Number(execFileSync('nproc').toString().trim()) >= 2;
  } catch {
    return false;
  }
})();

export interface Started {
  child: ChildProcess;
  port: number;
  stop(): Promise<void>;
}

/**
 * Spawns `node args` (pinned to `cores` where possible) with its stdout going to a file, and waits
 * for a JSON line with a port there. A file, not a pipe: a pipe the load generator is too busy to
 * drain would stall the server's log writes and show up as latency.
 */
export async function startListening(
  args: string[],
  env: NodeJS.ProcessEnv,
  cores: string,
): Promise<Started> {
  const command = canPin ? 'taskset' : process.execPath;
  const argv = canPin ? ['-c', cores, process.execPath, ...args] : args;
  const logPath = join(mkdtempSync(join(tmpdir(), 'deskgate-bench-log-')), 'server.log');
  const log = openSync(logPath, 'w');
  const child = spawn(command, argv, { env, stdio: ['ignore', log, 'inherit'] });
  closeSync(log);
  let exited = false;
  child.once('exit', () => {
    exited = true;
  });
  for (let waited = 0; waited < 30_000; waited += 50) {
    const line = readFileSync(logPath, 'utf8')
      .split('\n')
      .find((l) => l.includes('listening'));
    if (line) {
      const { port } = JSON.parse(line) as { port: number };
      return {
        child,
        port,
        stop: () =>
          new Promise((done) => {
            if (exited) return done();
            child.once('exit', () => done());
            child.kill('SIGTERM');
          }),
      };
    }
    if (exited) break;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  child.kill('SIGKILL');
  throw new Error(`process did not start listening; its log is ${logPath}`);
}

/** Resident set size of a process in bytes (Linux), or NaN elsewhere. */
export function rssBytes(pid: number | undefined): number {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = /VmRSS:\s+(\d+) kB/.exec(status)?.[1];
    return kb ? Number(kb) * 1024 : Number.NaN;
  } catch {
    return Number.NaN;
  }
}

/** A server's V8 heap in bytes, as its /metrics reports it (prom-client's default metrics). */
export interface HeapFigures {
  /** Committed by all of V8's heap spaces. */
  committed: number;
  /** Committed by the young generation (the `new` space). */
  young: number;
  /** Taken by objects, live or not yet collected. */
  used: number;
}

/** How long the bench waits for a server's /metrics before it goes on without the figures. */
const METRICS_TIMEOUT_MS = 5_000;

/**
 * Reads the heap figures from deskgate's /metrics, so that a change in the resident set can be
 * told apart from a change in what V8 keeps committed. Undefined when /metrics does not answer,
 * or not within METRICS_TIMEOUT_MS.
 */
export async function heapFigures(port: number): Promise<HeapFigures | undefined> {
  const lines = await fetch(`http://127.0.0.1:${port}/metrics`, {
    signal: AbortSignal.timeout(METRICS_TIMEOUT_MS),
  })
    .then((response) => (response.ok ? response.text() : undefined))
    .then((text) => text?.split('\n'))
    .catch(() => undefined);
  if (!lines) return undefined;
  const value = (series: string) => {
    const line = lines.find((l) => l.startsWith(`${series} `));
    return line === undefined ? Number.NaN : Number(line.slice(series.length + 1));
  };
  return {
    committed: value('nodejs_heap_size_total_bytes'),
    young: value('nodejs_heap_space_size_total_bytes{space="new"}'),
    used: value('nodejs_heap_size_used_bytes'),
  };
}
