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
 *
 * `node scripts/run-tests.ts FILE…` runs only those files, the same way, and keeps no times.
 * SIGINT or SIGTERM stops the groups, removes their temporary folder and exits 128 + the signal;
 * a second one kills the groups at once.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
} from 'node:fs';
import { constants, tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { DURATIONS_DIR, databasesKey, ROOT, testGroups } from './test-groups.ts';

/** Side by side on a 2-core machine: enough that one group waiting on a timer leaves no core idle. */
const GROUPS = 4;

interface Job {
  title: string;
  command: string;
  args: string[];
  /** Where a group's file times go once it has ended; it writes them to `<times>.partial`. */
  times?: string;
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

/**
 * Removes the folder, first unmounting what a stopped suite left mounted below it: the disk-full
 * suites mount a small tmpfs there as root and unmount it in their `after` hook, which a group
 * killed by a signal never runs.
 */
function removeScratch(dir: string): void {
  for (const mountPoint of mountsBelow(dir).reverse()) {
    spawnSync('umount', [mountPoint], { stdio: 'ignore' });
  }
  try {
    rmSync(dir, { recursive: true, force: true });
  } catch (error) {
    process.stderr.write(`npm test: could not remove ${dir}: ${(error as Error).message}\n`);
  }
}

function mountsBelow(dir: string): string[] {
  try {
    return readFileSync('/proc/self/mounts', 'utf8')
      .split('\n')
      .map((line) => line.split(' ')[1] ?? '')
      .filter((mountPoint) => mountPoint.startsWith(`${dir}/`));
  } catch {
    return [];
  }
}

const scratch = memoryScratch();
if (scratch) process.once('exit', () => removeScratch(scratch));

/** The jobs' processes still running. */
const running = new Set<ChildProcess>();
let stopping = false;

function killJobs(): void {
  for (const child of running) child.kill('SIGKILL');
}

/**
 * Stops the jobs with the signal this process got (Ctrl-C sends it to them too, a `kill` only
 * here) and exits once they have: the folder they write to is removed only after. One that has
 * not ended in 10 s, or when a second signal comes, is killed.
 */
async function stop(signal: 'SIGINT' | 'SIGTERM'): Promise<void> {
  stopping = true;
  const ended = [...running].map((child) => once(child, 'close'));
  for (const child of running) child.kill(signal);
  const deadline = setTimeout(killJobs, 10_000);
  await Promise.allSettled(ended);
  clearTimeout(deadline);
  process.exit(128 + constants.signals[signal]);
}
for (const signal of ['SIGINT', 'SIGTERM'] as const)
  process.on(signal, () => (stopping ? killJobs() : void stop(signal)));

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
  running.add(child);
  child.once('close', () => running.delete(child));
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

const given = process.argv
  .slice(2)
  .filter((arg) => !arg.startsWith('--'))
  .map((file) => relative(ROOT, resolve(file)));
const groups = testGroups(GROUPS, given.length > 0 ? given : undefined).filter(
  (files) => files.length > 0,
);
mkdirSync(DURATIONS_DIR, { recursive: true });
const jobs: Job[] = groups.map((files, i) => {
  // Each file's time, by which the next run deals the files (scripts/test-groups.ts); none for a
  // run of some files, and none from a group that was stopped.
  const times =
    given.length > 0 ? undefined : join(DURATIONS_DIR, `${databasesKey()}-group-${i + 1}.json`);
  return {
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
      ...(times
        ? [
            '--test-reporter=./scripts/file-durations-reporter.ts',
            `--test-reporter-destination=${times}.partial`,
          ]
        : []),
      ...files,
    ],
    times,
  };
});
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
    if (stopping) return;
    if (job.times && existsSync(`${job.times}.partial`))
      renameSync(`${job.times}.partial`, job.times);
    process.stdout.write(`\n── ${job.title}: exit ${result.code} ──\n${result.output}`);
    for (const [name, count] of summary(result.output)) {
      if (name !== 'duration_ms') totals.set(name, (totals.get(name) ?? 0) + count);
    }
    if (result.code !== 0) failed.push(job.title);
  }),
);
// Stopped by a signal, stop() reports nothing and exits once every job has ended.
if (!stopping) {
  const line = ['tests', 'pass', 'fail', 'cancelled', 'skipped', 'todo']
    .map((name) => `${name} ${totals.get(name) ?? 0}`)
    .join(', ');
  process.stdout.write(`\n── all test groups: ${line} ──\n`);
  if (failed.length > 0) process.stdout.write(`── failed: ${failed.join('; ')} ──\n`);
  process.exitCode = failed.length > 0 ? 1 : 0;
}
