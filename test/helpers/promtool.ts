import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

/** Debian's `prometheus` package installs it here; .ci/run tries to install it. */
export const PROMTOOL = '/usr/bin/promtool';

export const promtoolMissing = existsSync(PROMTOOL)
  ? false
  : `${PROMTOOL} is not installed (apt-get install prometheus): promtool check skipped`;

/** Runs promtool with `args`, `input` on stdin; its exit code and everything it printed. */
export function runPromtool(args: string[], input?: string): { code: number; output: string } {
  const result = spawnSync(PROMTOOL, args, { input, encoding: 'utf8', timeout: 60_000 });
  if (result.error) throw result.error;
  return { code: result.status ?? -1, output: `${result.stdout}${result.stderr}` };
}
