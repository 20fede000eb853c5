import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { call, userBody } from '../helpers/http.ts';
import { startServer } from '../helpers/server.ts';

/**
 * Beside sqlite-disk-full.test.ts (user/add, in-process, needs root): the served command and the
 * ticket write path. A real full disk: a 512 KiB tmpfs mounted in a mount namespace of the server's own (`unshare
 * -rm`: no root needed where user namespaces are allowed, nothing left mounted afterwards).
 */
const unshareWorks =
  spawnSync('unshare', ['-rm', 'sh', '-c', 'mount -t tmpfs -o size=64k tmpfs /mnt'], {
    stdio: 'ignore',
  }).status === 0;

test('`deskgate serve` on a full disk: ticket/add answers 503 and every error line names the full disk, never "cannot rollback" (issue 32, item 6)', {
  skip: unshareWorks ? false : 'skipped: unshare -rm with a tmpfs mount is not allowed here',
}, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'deskgate-full-'));
  const data = join(dir, 'data');
  const server = await startServer({
    databaseUrl: `sqlite:${join(data, 'deskgate.db')}`,
    prelude: {
      wrapper: ['unshare', '-rm'],
      script: `mkdir -p "${data}" && mount -t tmpfs -o size=512k tmpfs "${data}"`,
    },
  });
  const { output, port } = server;
  try {
    const key = /[0-9A-F]{32}/.exec(readFileSync(server.firstKeyFile, 'utf8'))?.[0] ?? '';
    const url = `http://127.0.0.1:${port}/upload/svc_wbs/`;
    const user = await call(url, {
      method: 'POST',
      headers: { apikey: key },
      body: userBody({ email: 'full@example.com' }),
    });
    assert.equal(user.status, 200, user.text);
    const userId = Number(user.body?.data);
    // Tickets of 15 KB each until the disk is full (512 KiB: a few dozen).
    let refused: Awaited<ReturnType<typeof call>> | undefined;
    for (let i = 0; i < 200 && !refused; i++) {
      const reply = await call(url, {
        method: 'POST',
        headers: { apikey: key },
        body: {
          query: 'ticket',
          condition: 'add',
          parameters: { title: `Full ${i}`, subject: 'x'.repeat(15_000), user_id: userId },
        },
      });
      if (reply.status !== 200) refused = reply;
    }
    assert.ok(refused, 'the disk filled up');
    assert.equal(refused.status, 503, refused.text);
    assert.equal(refused.body?.code, 'database_unavailable');
    await new Promise((resolve) => setTimeout(resolve, 200));
    const errors = output.filter((line) => line.includes('"level":50'));
    assert.ok(errors.length > 0, output.join('\n'));
    for (const line of errors) {
      assert.match(line, /SQLITE_FULL|database or disk is full/, line);
      assert.doesNotMatch(line, /cannot rollback/, line);
    }
    // The service itself stays up and reads still work.
    const health = await call(`http://127.0.0.1:${port}/healthz`, { method: 'GET' });
    assert.equal(health.status, 200);
  } finally {
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
});
