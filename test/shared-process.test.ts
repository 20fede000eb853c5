import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { unitTestFiles } from '../scripts/test-groups.ts';
import { ROOT } from './helpers/paths.ts';

/** The usual ways a test changes what every other file in its process sees. */
const PROCESS_STATE = [
  /process\.env(\.\w+|\[[^\]]+\])\s*=[^=]/,
  /delete process\.env/,
  /process\.(on|once|off|removeAllListeners)\(/,
  /mock\.timers/,
  /process\.(chdir|exit|umask)\(/,
  /process\.exitCode\s*=/,
];

test('the test files, which share processes in npm test, leave process state alone', () => {
  const files = unitTestFiles().map((file) => join(ROOT, file));
  assert.ok(files.length > 100, `${files.length} files`);
  const offenders = files.flatMap((file) => {
    const text = readFileSync(file, 'utf8');
    return PROCESS_STATE.filter((pattern) => pattern.test(text)).map((p) => `${file}: ${p}`);
  });
  assert.deepEqual(offenders, []);
});
