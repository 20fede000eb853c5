/**
 * `npm run test:unit`: every test file but the packed-package one (`npm run test:package`), as two
 * `node --test` runs side by side.
 *
 * - The files of SHARED_PROCESS (scripts/test-groups.ts: pure units and in-process-server
 *   suites that touch no process state) run in one process (`--test-isolation=none`): the
 *   server's modules load once instead of once a file, which halves their CPU.
 * - Every other file runs in a process of its own, three at a time: the CLI and process suites,
 *   and suites that change the environment, signals or the clock.
 *
 * The second run prints as it goes; the first prints when it ends. Exit 1 if either failed
 * (docs/decisions/210-test-suite-wall-time.md).
 */
import { spawn } from 'node:child_process';
import { ownProcessFiles, ROOT, sharedProcessFiles } from './test-groups.ts';

const shared = sharedProcessFiles();
const own = ownProcessFiles();

/** `node --test ARGS`; resolves to its exit code, its output written live or handed back. */
function nodeTest(args: string[], live: boolean): Promise<{ code: number; output: string }> {
  const child = spawn(process.execPath, ['--test', ...args], {
    cwd: ROOT,
    stdio: ['ignore', live ? 'inherit' : 'pipe', 'inherit'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code, signal) => resolve({ code: code ?? (signal ? 1 : 0), output }));
  });
}

const reporter = ['--test-reporter=spec', '--test-reporter-destination=stdout'];
const sharedRun = nodeTest(['--test-isolation=none', ...reporter, ...shared], false).then(
  (result) => {
    process.stdout.write(
      `\n── ${shared.length} files in one process ──\n${result.output}\n── ${own.length} files, each in a process of its own ──\n`,
    );
    return result.code;
  },
);
const ownCode = (await nodeTest(['--test-concurrency=3', ...reporter, ...own], true)).code;
const sharedCode = await sharedRun;
process.exitCode = ownCode || sharedCode ? 1 : 0;
