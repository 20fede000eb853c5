import { join } from 'node:path';
import { ROOT } from './paths.ts';

/**
 * Where Node keeps compiled code between runs (NODE_COMPILE_CACHE): a child `deskgate` then
 * starts in about half the CPU time, which the CLI and process suites spend hundreds of times.
 */
const COMPILE_CACHE =
  process.env.NODE_COMPILE_CACHE || join(ROOT, 'node_modules', '.cache', 'node-compile');

/**
 * The environment of a child `deskgate`: only what a shell would pass (PATH, HOME) and the compile
 * cache, then `env`, so that no DESKGATE_* variable of the test run leaks into it.
 */
export function childEnv(env: Record<string, string> = {}): Record<string, string | undefined> {
  return {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    NODE_COMPILE_CACHE: COMPILE_CACHE,
    ...env,
  };
}
