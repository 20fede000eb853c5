/**
 * `npm run test:unit`: every test file but the packed-package one (`npm run test:package`), dealt
 * into GROUPS `node --test` runs side by side, each one process (`--test-isolation=none`): the
 * server's and the helpers' modules load once a group instead of once a file, which was a fifth
 * of the suite's CPU. No file may change process state (test/shared-process.test.ts).
 *
 * With `--checks` (`npm test`), `npm run typecheck` and `npm run lint` run beside the groups
 * instead of before them: tsc keeps one core busy for seconds, and the tests use the other.
 *
 * Each job's report is printed whole when it ends, then one line adds up the tests. Exit 1 if any
 * job failed (docs/decisions/210-test-suite-wall-time.md). Each group also writes its files'
 * times, by which the next run deals them (docs/decisions/442-test-groups-by-last-times.md).
 */
import { spawn } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { constants, tmpdir } from 'node:os';
import { join } from 'node:path';
import { DURATIONS_DIR, databasesKey, ROOT, testGroups } from './test-groups.ts';

/** Side by side on a 2-core machine: enough that one group waiting on a timer leaves no core idle. */
const GROUPS = 4;

interface Job {
  title: string;
  command: string;
  args: string[];
}

interface JobResult {
  code: number;
  output: string;
}

/**
 * The groups' temporary folder (TMPDIR), in memory where the machine has /dev/shm: the suite makes
 * hundreds of SQLite databases, each commit fsynced (`synchronous=FULL`), and on a disk every
 * fsync stops its group for milliseconds (docs/decisions/450-test-scratch-in-memory.md). Open to
 * every user, as /tmp is: some suites run a process as another user.
 */
function memoryScratch(): string | undefined {
  try {
    if (!statSync('/dev/shm').isDirectory()) return undefined;
    const dir = mkdtempSync('/dev/shm/deskgate-tests-');
    chmodSync(dir, 0o1777);
    return dir;
  } catch {
    return undefined;
  }
}

const scratch = memoryScratch();
if (scratch) {
  // Memory until removed: also on Ctrl-C (the groups get the same signal and stop).
  process.once('exit', () => rmSync(scratch, { recursive: true, force: true }));
  for (const signal of ['SIGINT', 'SIGTERM'] as const)
    process.once(signal, () => process.exit(128 + constants.signals[signal]));
}

/** Runs a job with its output collected (stderr too: a report is printed in one piece). */
function run(job: Job): Promise<JobResult> {
  const child = spawn(job.command, job.args, {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: scratch
      ? { ...process.env, TMPDIR: scratch, DESKGATE_TEST_MACHINE_TMPDIR: tmpdir() }
      : process.env,
  });
  let output = '';
  const collect = (chunk: Buffer) => {
    output += chunk.toString();
  };
  child.stdout.on('data', collect);
  child.stderr.on('data', collect);
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code, signal) => resolve({ code: code ?? (signal ? 1 : 0), output }));
  });
}

/** The `ℹ name N` summary lines of a spec report, as numbers. */
function summary(output: string): Map<string, number> {
  const counts = new Map<string, number>();
  for (const match of output.matchAll(/^ℹ (\w+) ([\d.]+)$/gm)) {
    counts.set(match[1] as string, Number(match[2]));
  }
  return counts;
}

const groups = testGroups(GROUPS);
mkdirSync(DURATIONS_DIR, { recursive: true });
const jobs: Job[] = groups.map((files, i) => ({
  title: `tests, group ${i + 1} of ${groups.length}: ${files.length} files`,
  command: process.execPath,
  args: [
    '--import',
    './test/helpers/leak-check.ts',
    '--test',
    '--test-force-exit',
    '--test-isolation=none',
    '--test-reporter=spec',
    '--test-reporter-destination=stdout',
    // Each file's time, by which the next run deals the files (scripts/test-groups.ts).
    '--test-reporter=./scripts/file-durations-reporter.ts',
    `--test-reporter-destination=${join(DURATIONS_DIR, `${databasesKey()}-group-${i + 1}.json`)}`,
    ...files,
  ],
}));
if (process.argv.includes('--checks')) {
  for (const script of ['typecheck', 'lint']) {
    jobs.unshift({ title: `npm run ${script}`, command: 'npm', args: ['run', '--silent', script] });
  }
}

process.stdout.write(
  `Running ${jobs.map((job) => job.title).join('; ')}. Each report prints when its job ends.\n`,
);
const totals = new Map<string, number>();
const failed: string[] = [];
await Promise.all(
  jobs.map(async (job) => {
    const result = await run(job);
    process.stdout.write(`\n── ${job.title}: exit ${result.code} ──\n${result.output}`);
    for (const [name, count] of summary(result.output)) {
      if (name !== 'duration_ms') totals.set(name, (totals.get(name) ?? 0) + count);
    }
    if (result.code !== 0) failed.push(job.title);
  }),
);
const line = ['tests', 'pass', 'fail', 'cancelled', 'skipped', 'todo']
  .map((name) => `${name} ${totals.get(name) ?? 0}`)
  .join(', ');
process.stdout.write(`\n── all test groups: ${line} ──\n`);
if (failed.length > 0) process.stdout.write(`── failed: ${failed.join('; ')} ──\n`);
process.exitCode = failed.length > 0 ? 1 : 0;
