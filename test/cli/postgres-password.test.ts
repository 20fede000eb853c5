import assert from 'node:assert/strict';
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { once } from 'node:events';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { runCli } from '../helpers/cli.ts';
import { assertCleanFailure } from './cli-assertions.ts';

/**
 * The shared PostgreSQL trusts every local connection, so a wrong password cannot fail there. This
 * suite runs a private server of its own (initdb into a temporary directory, password
 * authentication, a free port) and removes it afterwards; nothing of the shared one changes.
 */
function findPostgresBin(): string | undefined {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return undefined;
  const versions = readdirSync(root).sort((a, b) => Number(b) - Number(a));
  for (const version of versions) {
    const dir = join(root, version, 'bin');
    if (existsSync(join(dir, 'initdb')) && existsSync(join(dir, 'postgres'))) return dir;
  }
  return undefined;
}

/** PostgreSQL refuses to run as root: as root, the suite runs it as the `postgres` user. */
function postgresUser(): { uid: number; gid: number } | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const uid = Number(execFileSync('id', ['-u', 'postgres']).toString());
  const gid = Number(execFileSync('id', ['-g', 'postgres']).toString());
  return { uid, gid };
}

async function freePort(): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  server.close();
  return port;
}

const bin = findPostgresBin();

describe('PostgreSQL with password authentication: a wrong password', {
  skip: bin ? false : 'no PostgreSQL server binaries (initdb, postgres) here',
}, () => {
  let dir: string;
  let server: ChildProcess | undefined;
  let port: number;

  before(async () => {
    assert.ok(bin);
    const user = postgresUser();
    dir = mkdtempSync(join(tmpdir(), 'deskgate-private-pg-'));
    const data = join(dir, 'data');
    const pwfile = join(dir, 'password');
    writeFileSync(pwfile, 'right-password\n');
    if (user) {
      chownSync(dir, user.uid, user.gid);
      chownSync(pwfile, user.uid, user.gid);
    }
    execFileSync(
      join(bin, 'initdb'),
      ['-D', data, '-U', 'postgres', '--auth=scram-sha-256', `--pwfile=${pwfile}`],
      { stdio: 'ignore', ...(user ?? {}) },
    );
    port = await freePort();
    server = spawn(
      join(bin, 'postgres'),
      ['-D', data, '-p', String(port), '-k', dir, '-c', 'listen_addresses=127.0.0.1'],
      { stdio: ['ignore', 'ignore', 'pipe'], ...(user ?? {}) },
    );
    let log = '';
    server.stderr?.on('data', (chunk: Buffer) => {
      log += chunk.toString();
    });
    const deadline = Date.now() + 30_000;
    while (!/ready to accept connections/.test(log)) {
      if (Date.now() > deadline || server.exitCode !== null)
        throw new Error(`the private PostgreSQL did not start:\n${log}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  });
  after(async () => {
    if (server && server.exitCode === null) {
      server.kill('SIGINT');
      await once(server, 'exit');
    }
    rmSync(dir, { recursive: true, force: true });
  });

  test('is one line naming the setting, and the password is not in it', async () => {
    const url = `postgres://postgres:wrong-password@127.0.0.1:${port}/postgres`;
    const serve = await runCli(['serve', '--database', url], { PORT: '0' });
    assertCleanFailure(serve, 1, /password authentication failed for user "postgres".*--database/);
    const list = await runCli(['keys', 'list'], { DESKGATE_DATABASE_URL: url });
    assertCleanFailure(list, 1, /password authentication failed.*DESKGATE_DATABASE_URL/);
    assert.doesNotMatch(serve.stderr + list.stderr, /wrong-password/);
  });

  test('the right password gets past it (the failure above was the password)', async () => {
    const url = `postgres://postgres:right-password@127.0.0.1:${port}/postgres`;
    const result = await runCli(['keys', 'list', '--database', url]);
    assertCleanFailure(result, 1, /not \(yet\) a deskgate database/);
  });
});
