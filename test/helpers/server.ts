import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { openStore } from '../../src/data/open-store.ts';
import type { Store } from '../../src/data/store.ts';
import { SERVICE_ENTITIES } from '../../src/server/service-entities.ts';
import { builtCli } from './built-cli.ts';
import { childEnv } from './child-env.ts';
import { ROOT } from './paths.ts';

/** Creates an API key as `keys create` does; test/helpers/cli-data.ts. */
export { type CreatedKey, createKey } from './cli-data.ts';

export interface StartedServer {
  /** e.g. http://127.0.0.1:41234 */
  origin: string;
  port: number;
  /** The service address, e.g. http://127.0.0.1:41234/upload/svc_wbs/ */
  url: string;
  process: ChildProcess;
  /** Every line the server wrote to stdout and stderr so far. */
  output: string[];
  /**
   * Where the server writes the first API key (its stdout is not a terminal): a fresh temporary
   * path unless the test set DESKGATE_FIRST_KEY_FILE; removed when the server stops.
   */
  firstKeyFile: string;
  /** Sends SIGTERM and waits for the exit; resolves to the exit code. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

export interface StartOptions {
  databaseUrl: string;
  env?: Record<string, string>;
  /** Options after `serve`, e.g. `['--port', '0']`. */
  args?: readonly string[];
  /**
   * Shell commands run before the server, which the shell then becomes (`exec`), e.g. `umask 0`;
   * under `wrapper` when given (`['unshare', '-rm']` for a mount namespace of its own).
   */
  prelude?: { script: string; wrapper?: readonly string[] };
}

/**
 * Starts `deskgate serve` (the command as the package ships it) as a child process on a free
 * port and waits until it listens.
 */
export async function startServer({
  databaseUrl,
  env = {},
  args = [],
  prelude,
}: StartOptions): Promise<StartedServer> {
  const keyDir = mkdtempSync(join(tmpdir(), 'deskgate-first-key-'));
  const firstKeyFile = env.DESKGATE_FIRST_KEY_FILE ?? join(keyDir, 'first-api-key.txt');
  const serve = [process.execPath, await builtCli(), 'serve', ...args];
  const [command, ...commandArgs] =
    prelude === undefined
      ? serve
      : [...(prelude.wrapper ?? []), 'sh', '-c', `${prelude.script} && exec "$@"`, 'sh', ...serve];
  const child = spawn(command as string, commandArgs, {
    cwd: ROOT,
    env: childEnv({
      HOST: '127.0.0.1',
      PORT: '0',
      DESKGATE_DATABASE_URL: databaseUrl,
      DESKGATE_LOG_FORMAT: 'json',
      DESKGATE_BCRYPT_COST: '4',
      // Tests revoke keys and expect the next request to fail; the cache has tests of its own.
      DESKGATE_KEY_CACHE_TTL: '0',
      // Suites send many requests with one key; the per-key limit has tests of its own.
      DESKGATE_RATE_LIMIT: '0',
      DESKGATE_FIRST_KEY_FILE: firstKeyFile,
      ...env,
    }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output: string[] = [];
  const exited = new Promise<number | null>((resolve) =>
    child.once('exit', (code) => {
      rmSync(keyDir, { recursive: true, force: true });
      resolve(code);
    }),
  );
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`server did not start:\n${output.join('\n')}`)),
      15_000,
    );
    for (const stream of [child.stdout, child.stderr]) {
      createInterface({ input: stream }).on('line', (line) => {
        output.push(line);
        if (line.includes('"deskgate listening"')) {
          clearTimeout(timer);
          resolve((JSON.parse(line) as { port: number }).port);
        }
      });
    }
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code} before listening:\n${output.join('\n')}`));
    });
  });
  const origin = `http://127.0.0.1:${port}`;
  return {
    origin,
    port,
    url: `${origin}${env.DESKGATE_BASE_PATH ?? ''}/upload/svc_wbs/`,
    process: child,
    output,
    firstKeyFile,
    async stop(signal = 'SIGTERM') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exited;
    },
  };
}

/** Runs `fn` with the real Store of `databaseUrl` (migrated), and closes it. */
export async function withStore<T>(
  databaseUrl: string,
  fn: (store: Store) => Promise<T>,
): Promise<T> {
  const { store } = await openStore({ databaseUrl }, { migrate: true, entities: SERVICE_ENTITIES });
  try {
    return await fn(store);
  } finally {
    await store.close();
  }
}
