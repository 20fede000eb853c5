/**
 * A `node --test` reporter for npm test (scripts/run-tests.ts): how long each test file took, as
 * JSON `{ "path relative to the root": ms }`, the sum of its top-level tests and suites (a
 * process runs a file's top-level tests one after another). scripts/test-groups.ts deals the
 * next run's files by these times.
 */
import { join, relative } from 'node:path';
import type { TestEvent } from 'node:test/reporters';
import { fileURLToPath } from 'node:url';

const ROOT = join(fileURLToPath(import.meta.url), '..', '..');

export default async function* fileDurations(
  source: AsyncIterable<TestEvent>,
): AsyncGenerator<string> {
  const durations: Record<string, number> = {};
  // A suite declared by a helper (describeEachDatabase) is located in the helper; its tests,
  // declared in the test file and reported before it, name the file.
  let lastTestFile: string | undefined;
  for await (const event of source) {
    if (event.type !== 'test:pass' && event.type !== 'test:fail') continue;
    const { data } = event;
    if (data.file?.endsWith('.test.ts')) lastTestFile = relative(ROOT, data.file);
    if (data.nesting !== 0 || !lastTestFile) continue;
    durations[lastTestFile] = (durations[lastTestFile] ?? 0) + data.details.duration_ms;
  }
  yield `${JSON.stringify(durations, null, 1)}\n`;
}
