import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { createConnection } from 'mysql2/promise';

const MARIADBD = process.env.DESKGATE_TEST_MARIADBD ?? '/usr/sbin/mariadbd';
const INSTALL_DB = process.env.DESKGATE_TEST_MARIADB_INSTALL_DB ?? '/usr/bin/mariadb-install-db';

/** Why a private MariaDB server cannot be started here, or false when it can. */
export const PRIVATE_MARIADB_SKIP: string | false =
  existsSync(MARIADBD) && existsSync(INSTALL_DB)
    ? false
    : `skipped: a private MariaDB server needs ${MARIADBD} and ${INSTALL_DB} (set DESKGATE_TEST_MARIADBD / DESKGATE_TEST_MARIADB_INSTALL_DB)`;

export interface PrivateMariadb {
  /** root, no password, over TCP on 127.0.0.1. */
  adminUrl: string;
  stop(): Promise<void>;
}

/** A TCP port on 127.0.0.1 that was free a moment ago. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

async function waitUntilAnswering(url: string, child: ChildProcess, log: string[]): Promise<void> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`mariadbd exited:\n${log.join('')}`);
    try {
      const connection = await createConnection(url);
      await connection.end();
      return;
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}

/**
 * A MariaDB server of the test's own (own datadir under the temp dir, own port), so a test can
 * give it server-wide settings such as the global time zone without touching the shared one.
 */
export async function startPrivateMariadb(
  extraArgs: readonly string[],
  /** The server's system time zone (its TZ), e.g. `Asia/Tokyo`; default: this machine's. */
  systemTimeZone?: string,
): Promise<PrivateMariadb> {
  const dir = mkdtempSync(join(tmpdir(), 'deskgate-mariadb-'));
  const datadir = join(dir, 'data');
  // A temp folder of its own: a MariaDB server deletes every #sql* file in its tmpdir when it
  // starts, which in /tmp are the shared test server's open temporary tables.
  const tmp = join(dir, 'tmp');
  mkdirSync(tmp);
  const user = userInfo().username;
  await promisify(execFile)(INSTALL_DB, [
    '--no-defaults',
    `--datadir=${datadir}`,
    `--tmpdir=${tmp}`,
    `--user=${user}`,
    '--auth-root-authentication-method=normal',
    '--skip-test-db',
  ]);
  const port = await freePort();
  const log: string[] = [];
  const child = spawn(
    MARIADBD,
    [
      '--no-defaults',
      `--datadir=${datadir}`,
      `--tmpdir=${tmp}`,
      `--user=${user}`,
      `--port=${port}`,
      '--bind-address=127.0.0.1',
      `--socket=${join(dir, 'mariadb.sock')}`,
      `--pid-file=${join(dir, 'mariadb.pid')}`,
      '--skip-log-bin',
      '--innodb-buffer-pool-size=16M',
      ...extraArgs,
    ],
    {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: systemTimeZone ? { ...process.env, TZ: systemTimeZone } : process.env,
    },
  );
  child.stdout?.on('data', (chunk: Buffer) => log.push(chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => log.push(chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const adminUrl = `mysql://root@127.0.0.1:${port}/mysql`;
  try {
    await waitUntilAnswering(adminUrl, child, log);
  } catch (error) {
    child.kill('SIGKILL');
    await exited;
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  return {
    adminUrl,
    async stop() {
      if (child.exitCode === null) {
        child.kill('SIGTERM');
        const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
        await exited;
        clearTimeout(timer);
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
