import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';

/** Whether `taskset` can pin processes to cores here (it needs two cores to be worth it). */
export const canPin = (() => {
  try {
    execFileSync('taskset', ['-p', String(process.pid)], { stdio: 'ignore' });
    return Number(execFileSync('nproc').toString().trim()) >= 2;
  } catch {
    return false;
  }
})();

/** Pins this process (the load generator) to `cores`, e.g. "1". */
export function pinSelf(cores: string): void {
  if (canPin) execFileSync('taskset', ['-cp', cores, String(process.pid)], { stdio: 'ignore' });
}

export interface Started {
  child: ChildProcess;
  port: number;
  stop(): Promise<void>;
}

/** Spawns `node args` (pinned to `cores` where possible) and waits for a JSON line with a port. */
export function startListening(
  args: string[],
  env: NodeJS.ProcessEnv,
  cores: string,
): Promise<Started> {
  const command = canPin ? 'taskset' : process.execPath;
  const argv = canPin ? ['-c', cores, process.execPath, ...args] : args;
  const child = spawn(command, argv, { env, stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    const lines = createInterface({ input: child.stdout });
    const onLine = (line: string) => {
      if (!line.includes('listening')) return;
      lines.off('line', onLine);
      const { port } = JSON.parse(line) as { port: number };
      // Keep draining the log so the server never blocks on a full pipe.
      lines.on('line', () => {});
      resolve({
        child,
        port,
        stop: () =>
          new Promise((done) => {
            child.once('exit', () => done());
            child.kill('SIGTERM');
          }),
      });
    };
    lines.on('line', onLine);
    child.once('exit', (code) => reject(new Error(`process exited with ${code} before listening`)));
  });
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
