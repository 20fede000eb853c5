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

for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  test(`${signal} to npm test's runner stops its groups, then removes their temporary folder`, {
    timeout: 60_000,
  }, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'deskgate-signal-'));
    const reportFile = join(dir, 'report.json');
    let report: WaitingReport | undefined;
    const runner = spawn(
      process.execPath,
      ['scripts/run-tests.ts', 'test/support/waits-for-a-signal.ts'],
      {
        cwd: ROOT,
        env: { ...process.env, DESKGATE_WAITING_REPORT: reportFile },
        stdio: 'ignore',
      },
    );
    const exited = once(runner, 'exit');
    try {
      while (!existsSync(reportFile)) await sleep(50);
      await sleep(100);
      report = JSON.parse(readFileSync(reportFile, 'utf8')) as WaitingReport;
      assert.ok(existsSync(report.tmpdir), report.tmpdir);

      runner.kill(signal);
      const [code] = await exited;
      assert.equal(code, signal === 'SIGTERM' ? 143 : 130);
      assert.equal(isAlive(report.pid), false, 'the group process outlived the runner');
      if (report.tmpdir !== tmpdir()) {
        assert.equal(existsSync(report.tmpdir), false, `${report.tmpdir} was left behind`);
      }
      const mounts = readFileSync('/proc/self/mounts', 'utf8');
      assert.equal(mounts.includes(report.tmpdir), false, 'a mount was left behind');
    } finally {
      // Only after a failure is anything still running.
      if (runner.exitCode === null) runner.kill('SIGKILL');
      if (report && isAlive(report.pid)) process.kill(report.pid, 'SIGKILL');
      rmSync(dir, { recursive: true, force: true });
    }
  });
}
