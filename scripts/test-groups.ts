import { globSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root: the paths below are relative to it. */
export const ROOT = join(fileURLToPath(import.meta.url), '..', '..');

/**
 * The test files that share one process in `npm run test:unit` (scripts/run-tests.ts): pure
 * units and in-process-server suites. They must not change process state (test/shared-process
 * .test.ts checks for the usual ways).
 */
const SHARED_PROCESS = [
  'src/**/*.test.ts',
  'test/http/*.test.ts',
  'test/limits/*.test.ts',
  'test/catalogue/*.test.ts',
  'test/conformance/*.test.ts',
];

/** `npm run test:package`: it packs and installs the package, a test of packaging. */
const SEPARATE = ['test/package/*.test.ts'];

const ALL = ['src/**/*.test.ts', 'test/**/*.test.ts'];

const files = (patterns: string[]) =>
  [...new Set(patterns.flatMap((p) => globSync(p, { cwd: ROOT })))].sort();

/** The files that run in one process, relative to the repository root. */
export function sharedProcessFiles(): string[] {
  return files(SHARED_PROCESS);
}

/** Every other file of `npm run test:unit`: each in a process of its own. */
export function ownProcessFiles(): string[] {
  const shared = new Set(sharedProcessFiles());
  const separate = new Set(files(SEPARATE));
  return files(ALL).filter((file) => !shared.has(file) && !separate.has(file));
}
