import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { ROOT } from './paths.ts';

export interface HeldWriteLock {
  child: ChildProcess;
  /** Rolls the holder's transaction back and waits for it to exit. */
  release(): Promise<void>;
}

/** Another process that holds SQLite's write lock (BEGIN IMMEDIATE) on `path` until released. */
export async function holdWriteLock(path: string): Promise<HeldWriteLock> {
  const script = `
    const Database = require('better-sqlite3');
    const db = new Database(process.argv[1]);
    db.exec('begin immediate');
    console.log('locked');
    process.stdin.once('data', () => { db.exec('rollback'); db.close(); process.exit(0); });`;
  const child = spawn(process.execPath, ['-e', script, path], {
    cwd: ROOT,
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const lines = createInterface({ input: child.stdout as NodeJS.ReadableStream });
  await new Promise<void>((resolve, reject) => {
    lines.once('line', (line) => (line === 'locked' ? resolve() : reject(new Error(line))));
    child.once('exit', (code) => reject(new Error(`the lock holder exited with ${code}`)));
  });
  return {
    child,
    async release() {
      child.stdin?.write('go\n');
      if (child.exitCode === null) await once(child, 'exit');
    },
  };
}
