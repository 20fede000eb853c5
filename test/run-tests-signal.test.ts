import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { ROOT } from './helpers/paths.ts';
import { isAlive } from './helpers/processes.ts';

interface WaitingReport {
  tmpdir: string;
  pid: number;
}

/** Starts the runner on the waiting test file; resolves once the group has said where it writes. */
async function startWaiting(dir: string, env: Record<string, string> = {}) {
  const reportFile = join(dir, 'report.json');
  const runner = spawn(
    process.execPath,
    ['scripts/run-tests.ts', 'test/support/waits-for-a-signal.ts'],
    {
      cwd: ROOT,
      env: { ...process.env, DESKGATE_WAITING_REPORT: reportFile, ...env },
      stdio: 'ignore',
    },
  );
  const exited = once(runner, 'exit');
  while (!existsSync(reportFile) && runner.exitCode === null) await sleep(50);
  await sleep(100);
  const report = JSON.parse(readFileSync(reportFile, 'utf8')) as WaitingReport;
  assert.ok(existsSync(report.tmpdir), report.tmpdir);
  return { runner, exited, report };
}

/** The group is gone, and so are its temporary folder and anything mounted in it. */
function assertNothingLeft(report: WaitingReport): void {
  assert.equal(isAlive(report.pid), false, 'the group process outlived the runner');
  if (report.tmpdir !== tmpdir()) {
    assert.equal(existsSync(report.tmpdir), false, `${report.tmpdir} was left behind`);
  }
  const mounts = readFileSync('/proc/self/mounts', 'utf8');
  assert.equal(mounts.includes(report.tmpdir), false, 'a mount was left behind');
}

/** Only after a failure is anything still running. */
function cleanUp(dir: string, started: Awaited<ReturnType<typeof startWaiting>> | undefined) {
  if (started?.runner.exitCode === null) started.runner.kill('SIGKILL');
  if (started && isAlive(started.report.pid)) process.kill(started.report.pid, 'SIGKILL');
  rmSync(dir, { recursive: true, force: true });
}

for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  test(`${signal} to npm test's runner stops its groups, then removes their temporary folder`, {
    timeout: 60_000,
  }, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'deskgate-signal-'));
    let started: Awaited<ReturnType<typeof startWaiting>> | undefined;
    try {
      started = await startWaiting(dir);
      started.runner.kill(signal);
      const [code] = await started.exited;
      assert.equal(code, signal === 'SIGTERM' ? 143 : 130);
      assertNothingLeft(started.report);
    } finally {
      cleanUp(dir, started);
    }
  });
}

test('a second Ctrl-C kills a group that is slow to stop, and the folder is still removed', {
  timeout: 60_000,
}, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'deskgate-signal-'));
  let started: Awaited<ReturnType<typeof startWaiting>> | undefined;
  try {
    started = await startWaiting(dir, { DESKGATE_WAITING_IGNORES_SIGINT: '1' });
    started.runner.kill('SIGINT');
    await sleep(500);
    assert.equal(isAlive(started.report.pid), true, 'the group outlives the first Ctrl-C');
    started.runner.kill('SIGINT');
    const [code] = await started.exited;
    assert.equal(code, 130);
    assertNothingLeft(started.report);
  } finally {
    cleanUp(dir, started);
  }
});
