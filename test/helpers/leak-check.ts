/**
 * Loaded with `--import` into every test process (scripts/run-tests.ts): notes which test file
 * was running when each socket, server, pipe and child process was opened, and when the
 * process's tests have all run, fails naming the files whose handles are still open (a server not
 * closed, a pool not ended, a child not killed). Timers are left out, and so are handles Node
 * opens for itself. A handle opened in a file's `before` hook is named after the file whose test
 * ran last before it (the runner offers no per-file hook): look at the next file too. The processes run with --test-force-exit, so a leaked handle fails the run
 * here instead of holding the process open.
 */
import { createHook } from 'node:async_hooks';
import { relative } from 'node:path';
import { after, beforeEach } from 'node:test';

/** What a helper shares across a process's files (a browser) closes before the check, not after. */
const sharedUntilTheEnd: (() => Promise<void>)[] = [];

/** Registers `close` for what stays open across files until the process's tests are done. */
export function closeAtTheEnd(close: () => Promise<void>): void {
  sharedUntilTheEnd.push(close);
}

const WATCHED = new Set(['TCPSERVERWRAP', 'TCPWRAP', 'PIPESERVERWRAP', 'PIPEWRAP', 'PROCESSWRAP']);

let runningFile: string | undefined;
const opened = new Map<number, { type: string; file: string; resource: object }>();

beforeEach((t) => {
  runningFile = t.filePath;
});

createHook({
  init(asyncId, type, _trigger, resource) {
    if (runningFile !== undefined && WATCHED.has(type))
      opened.set(asyncId, { type, file: runningFile, resource });
  },
  destroy(asyncId) {
    opened.delete(asyncId);
  },
}).enable();

/** Whether the handle is still open: closing ones report hasRef() false once uv let them go. */
function isOpen(resource: object): boolean {
  const handle = resource as { hasRef?: () => boolean; fd?: number };
  if (typeof handle.fd === 'number' && handle.fd < 0) return false;
  return typeof handle.hasRef === 'function' ? handle.hasRef() : true;
}

after(async () => {
  for (const close of sharedUntilTheEnd) await close();
  // Handles being closed finish on the next turns of the loop; give them a moment.
  await new Promise((resolve) => setTimeout(resolve, 200));
  const left = new Map<string, string[]>();
  for (const { type, file, resource } of opened.values()) {
    if (!isOpen(resource)) continue;
    const name = relative(process.cwd(), file);
    left.set(name, [...(left.get(name) ?? []), type]);
  }
  if (left.size > 0) {
    const lines = [...left].map(([file, types]) => `  ${file}: ${types.join(', ')}`);
    // A failing root hook alone leaves the exit code 0.
    process.exitCode = 1;
    throw new Error(`test files left handles open:\n${lines.join('\n')}`);
  }
});
