import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { childEnv } from '../helpers/child-env.ts';
import { ROOT } from '../helpers/paths.ts';
import { isAlive } from '../helpers/processes.ts';

function refusesConnections(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.on('connect', () => {
      socket.destroy();
      resolve(false);
    });
    socket.on('error', () => resolve(true));
  });
}

const dir = mkdtempSync(join(tmpdir(), 'deskgate-npm-start-'));
after(() => rmSync(dir, { recursive: true, force: true }));

test('SIGTERM to `npm start` stops the server too: no orphan keeps the port', async () => {
  const npm = spawn('npm', ['start', '--silent'], {
    cwd: ROOT,
    env: childEnv({
      PORT: '0',
      DESKGATE_DATABASE_URL: `sqlite:${join(dir, 'deskgate.db')}`,
      DESKGATE_FIRST_KEY_FILE: join(dir, 'first-key.txt'),
      DESKGATE_LOG_FORMAT: 'json',
    }),
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let output = '';
  let server: { pid: number; port: number } | undefined;
  try {
    const listening = new Promise<{ pid: number; port: number }>((resolve, reject) => {
      npm.stdout.on('data', (chunk: Buffer) => {
        output += chunk.toString();
        for (const line of output.split('\n')) {
          if (!line.includes('"deskgate listening"')) continue;
          const record = JSON.parse(line) as { pid: number; port: number };
          resolve({ pid: record.pid, port: record.port });
        }
      });
      npm.on('exit', () => reject(new Error(`npm start ended before listening:\n${output}`)));
    });
    server = await listening;
    assert.notEqual(server.pid, npm.pid, 'the server is a process of its own');
    const exited = once(npm, 'exit');
    npm.kill('SIGTERM');
    await exited;
    const deadline = Date.now() + 10_000;
    while (isAlive(server.pid) && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 50));
    assert.equal(isAlive(server.pid), false, `server ${server.pid} still runs after npm exited`);
    assert.equal(await refusesConnections(server.port), true);
    assert.match(output, /"msg":"deskgate stopped"/);
  } finally {
    npm.kill('SIGKILL');
    if (server && isAlive(server.pid)) process.kill(server.pid, 'SIGKILL');
  }
});
