// A test file for test/run-tests-signal.test.ts: it writes into the run's temporary folder (and,
// as root, mounts a small file system there, as the disk-full suites do), says where, then waits
// until the run is stopped. With DESKGATE_WAITING_IGNORES_SIGINT it outlives a Ctrl-C, as a group
// still in its `after` hooks does.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';

test('waits until stopped', async () => {
  if (process.env.DESKGATE_WAITING_IGNORES_SIGINT) {
    // node:test ends the run on SIGINT; this group, like one stuck in a hook, does not.
    process.removeAllListeners('SIGINT');
    process.on('SIGINT', () => {});
  }
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
