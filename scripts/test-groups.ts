import { globSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

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

/** SQLite, and PostgreSQL and MySQL/MariaDB when the run names them (test/helpers/databases.ts). */
const DATABASE_KINDS =
  1 +
  Number(Boolean(process.env.DESKGATE_TEST_POSTGRES_URL)) +
  Number(Boolean(process.env.DESKGATE_TEST_MYSQL_URL));

/**
 * A file's rough cost, to deal the files evenly: its size, times the database kinds of this run
 * when its suites run once per kind.
 */
function weight(file: string): number {
  const text = readFileSync(join(ROOT, file), 'utf8');
  return /describeEachDatabase|of DATABASES\b/.test(text)
    ? DATABASE_KINDS * text.length
    : text.length;
}

/**
 * The unit test files dealt into `count` groups, one `node --test` process each: heaviest first,
 * each to the lightest group so far. Within a group Node runs the files in path order.
 */
export function testGroups(count: number): string[][] {
  const groups = Array.from({ length: count }, () => ({ files: [] as string[], weight: 0 }));
  const weighed = unitTestFiles()
    .map((file) => ({ file, weight: weight(file) }))
    .sort((a, b) => b.weight - a.weight || a.file.localeCompare(b.file));
  for (const { file, weight } of weighed) {
    const lightest = groups.reduce((a, b) => (b.weight < a.weight ? b : a));
    lightest.files.push(file);
    lightest.weight += weight;
  }
  return groups.map((group) => group.files.sort());
}
