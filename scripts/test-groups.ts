import { globSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DATABASES } from '../test/helpers/databases.ts';

/** The repository root: the paths below are relative to it. */
export const ROOT = join(fileURLToPath(import.meta.url), '..', '..');

/** `npm run test:package`: it packs and installs the package, a test of packaging. */
const SEPARATE = ['test/package/*.test.ts'];

const ALL = ['src/**/*.test.ts', 'test/**/*.test.ts'];

const files = (patterns: string[]) =>
  [...new Set(patterns.flatMap((p) => globSync(p, { cwd: ROOT })))].sort();

/**
 * The files of `npm run test:unit`, relative to the repository root: every test file but the
 * packed-package one. They share processes, so none may change process state
 * (test/shared-process.test.ts checks for the usual ways).
 */
export function unitTestFiles(): string[] {
  const separate = new Set(files(SEPARATE));
  return files(ALL).filter((file) => !separate.has(file));
}

/**
 * Where npm test keeps each file's time of its last run (scripts/file-durations-reporter.ts),
 * one JSON file a group; under node_modules, as the other caches of a checkout.
 */
export const DURATIONS_DIR = join(ROOT, 'node_modules', '.cache', 'test-durations');

/**
 * Each file's time in ms in the last npm test, keyed by the set of databases it ran on (a
 * SQLite-only run's times say little about a full run's).
 */
function lastDurations(): Map<string, number> {
  const durations = new Map<string, number>();
  let names: string[] = [];
  try {
    names = readdirSync(DURATIONS_DIR).filter(
      (name) => name.startsWith(`${databasesKey()}-`) && name.endsWith('.json'),
    );
  } catch {
    return durations;
  }
  for (const name of names) {
    try {
      const read = JSON.parse(readFileSync(join(DURATIONS_DIR, name), 'utf8')) as Record<
        string,
        number
      >;
      for (const [file, ms] of Object.entries(read)) durations.set(file, ms);
    } catch {
      // Unreadable: its files fall back to their size.
    }
  }
  return durations;
}

/** The databases of this run, e.g. `sqlite+postgres`: the durations files are kept per set. */
export function databasesKey(): string {
  return DATABASES.map((kind) => kind.name).join('+');
}

/**
 * A file's rough cost when it has no time yet: its size, times the database kinds of this run
 * when its suites run once per kind.
 */
function weight(text: string): number {
  return /describeEachDatabase|of DATABASES\b/.test(text)
    ? DATABASES.length * text.length
    : text.length;
}

/**
 * Files dealt as one: the browser suites share one Chromium a process (test/helpers/chromium.ts),
 * the ticket writes' real-osTicket suites one osTicket (test/helpers/shared-osticket.ts, installed
 * in 8–15 s).
 */
const unitOf = (file: string, text: string) => {
  if (text.includes('helpers/chromium.ts')) return 'chromium';
  if (/helpers\/(shared-osticket|osticket-ticket-writes)\.ts/.test(text)) return 'shared osTicket';
  return file;
};

/**
 * The unit test files (or `only`) dealt into `count` groups, one `node --test` process each:
 * heaviest first, each to the lightest group so far. A file weighs the time it took in the last
 * run on the same databases (its waits on timers count: the groups should end together), else
 * its size scaled to the times of the others.
 */
export function testGroups(count: number, only: readonly string[] = unitTestFiles()): string[][] {
  const durations = lastDurations();
  const files = only.map((file) => {
    const text = readFileSync(join(ROOT, file), 'utf8');
    return { file, text, size: weight(text), ms: durations.get(file) };
  });
  const timed = files.filter((f) => f.ms !== undefined);
  // ms per unit of size, from the files that have both (1 when none has a time: sizes alone).
  const perSize =
    timed.length > 0
      ? timed.reduce((sum, f) => sum + (f.ms ?? 0), 0) /
        Math.max(
          1,
          timed.reduce((sum, f) => sum + f.size, 0),
        )
      : 1;
  const units = new Map<string, { files: string[]; weight: number }>();
  for (const { file, text, size, ms } of files) {
    const key = unitOf(file, text);
    const unit = units.get(key) ?? { files: [], weight: 0 };
    unit.files.push(file);
    unit.weight += ms ?? size * perSize;
    units.set(key, unit);
  }
  const groups = Array.from({ length: count }, () => ({ files: [] as string[], weight: 0 }));
  const heaviestFirst = [...units.values()].sort(
    (a, b) => b.weight - a.weight || String(a.files[0]).localeCompare(String(b.files[0])),
  );
  for (const unit of heaviestFirst) {
    const lightest = groups.reduce((a, b) => (b.weight < a.weight ? b : a));
    lightest.files.push(...unit.files);
    lightest.weight += unit.weight;
  }
  return groups.map((group) => group.files.sort().map(runEarlyIfWaiting));
}

/**
 * Node runs a group's files in path order, sorting what it is given, and an absolute path sorts
 * before every relative one. The webhook delivery suites mostly wait on delivery timers and would
 * come last (test/webhooks/): the run's last seconds then left both cores idle. Given absolute,
 * they run first, while the other groups compute.
 */
function runEarlyIfWaiting(file: string): string {
  return file.startsWith('test/webhooks/') ? join(ROOT, file) : file;
}
