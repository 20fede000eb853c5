// A test file for test/run-tests-signal.test.ts: it writes into the run's temporary folder (and,
// as root, mounts a small file system there, as the disk-full suites do), says where, then waits
// until the run is stopped.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';

test('waits until stopped', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'deskgate-waiting-'));
  writeFileSync(join(dir, 'data'), 'x');
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=1m', 'tmpfs', dir], { stdio: 'ignore' });
  } catch {}
  writeFileSync(
    process.env.DESKGATE_WAITING_REPORT as string,
    JSON.stringify({ tmpdir: tmpdir(), pid: process.pid }),
  );
  await new Promise(() => setInterval(() => {}, 1_000));
});
