import { globSync, readFileSync } from 'node:fs';
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
 * A file's rough cost, to deal the files evenly: its size, times the database kinds of this run
 * when its suites run once per kind.
 */
function weight(text: string): number {
  return /describeEachDatabase|of DATABASES\b/.test(text)
    ? DATABASES.length * text.length
    : text.length;
}

/** Files dealt as one: the browser suites share one Chromium a process (test/helpers/chromium.ts). */
const unitOf = (file: string, text: string) =>
  text.includes('helpers/chromium.ts') ? 'chromium' : file;

/**
 * The unit test files dealt into `count` groups, one `node --test` process each: heaviest first,
 * each to the lightest group so far. Within a group Node runs the files in path order.
 */
export function testGroups(count: number): string[][] {
  const units = new Map<string, { files: string[]; weight: number }>();
  for (const file of unitTestFiles()) {
    const text = readFileSync(join(ROOT, file), 'utf8');
    const key = unitOf(file, text);
    const unit = units.get(key) ?? { files: [], weight: 0 };
    unit.files.push(file);
    unit.weight += weight(text);
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
  return groups.map((group) => group.files.sort());
}
