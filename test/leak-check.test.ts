import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { test } from 'node:test';

/** A test process as scripts/run-tests.ts starts one, over `files`. */
function runTests(files: string[]) {
  return spawnSync(
    process.execPath,
    [
      '--import',
      './test/helpers/leak-check.ts',
      '--test',
      '--test-force-exit',
      '--test-isolation=none',
      ...files,
    ],
    { encoding: 'utf8', timeout: 60_000 },
  );
}

test('a file that leaves a server open fails the run, named; a clean one passes', () => {
  const leaky = runTests(['test/support/leaves-a-server-open.ts']);
  assert.equal(leaky.status, 1, leaky.stdout);
  assert.match(
    leaky.stdout,
    /left handles open:\s+test\/support\/leaves-a-server-open\.ts: TCPSERVERWRAP/,
  );
  const clean = runTests(['test/support/closes-what-it-opens.ts']);
  assert.equal(clean.status, 0, clean.stdout);
});
