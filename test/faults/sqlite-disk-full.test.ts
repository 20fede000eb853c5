import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { users } from '../../src/data/users/users.ts';
import { call, type Reply, userBody } from '../helpers/http.ts';
import { createKey, type StartedServer, startServer, withStore } from '../helpers/server.ts';
import { holdWriteLock } from '../helpers/sqlite-write-lock.ts';

/** A small file system of its own (tmpfs), so that the disk can really fill up; needs root. */
function mountSmallDisk(): { dir: string; unmount(): void } | undefined {
  const dir = mkdtempSync(join(tmpdir(), 'deskgate-full-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=3m', 'tmpfs', dir], { stdio: 'ignore' });
  } catch {
    rmSync(dir, { recursive: true, force: true });
    return undefined;
  }
  return {
    dir,
    unmount() {
      execFileSync('umount', [dir], { stdio: 'ignore' });
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Writes until the file system is full; returns the filler's path. */
function fillDisk(dir: string): string {
  const path = join(dir, 'filler');
  const fd = openSync(path, 'w');
  const chunk = Buffer.alloc(16 * 1024, 1);
  try {
    for (;;) writeSync(fd, chunk);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error;
  } finally {
    closeSync(fd);
  }
  return path;
}

const disk = mountSmallDisk();
/** Creations in one shared commit (SQLite group commit). */
const BATCH = 8;
/** A bcrypt hash as the password is stored as sent. */
const BCRYPT_HASH = '$2y$10$.vGA1O9wmRjrwAVXD98HNOgsNpDczlqm3Jq7KnEd1rVAGv3Fykk1a';

// Issue 14, item 17: SQLite on a full disk answers 503 and logs the real cause; acknowledged
// users survive and writes resume when space returns.
describe('SQLite on a full disk', { skip: disk ? false : 'mounting a tmpfs needs root' }, () => {
  let server: StartedServer;
  let key: string;
  let url: string;

  before(async () => {
    url = `sqlite:${join(disk?.dir as string, 'deskgate.db')}`;
    ({ key } = await createKey(url));
    server = await startServer({ databaseUrl: url });
  });
  after(async () => {
    await server?.stop();
    disk?.unmount();
  });

  test('503 with the disk-full cause in the log; acknowledged users kept; writes resume', async () => {
    const acknowledged: string[] = [];
    for (let i = 0; i < 5; i++) {
      const email = `before.${i}@example.com`;
      const reply = await call(server.url, {
        method: 'POST',
        headers: { apikey: key },
        body: userBody({ email }),
      });
      assert.equal(reply.status, 200, reply.text);
      acknowledged.push(email);
    }
    const filler = fillDisk(disk?.dir as string);
    let refused: Awaited<ReturnType<typeof call>> | undefined;
    // Space SQLite had already reserved may take a few more writes before the disk says no.
    for (let i = 0; i < 200 && !refused; i++) {
      const email = `during.${i}@example.com`;
      const reply = await call(server.url, {
        method: 'POST',
        headers: { apikey: key },
        body: userBody({ email }),
      });
      if (reply.status === 200) acknowledged.push(email);
      else refused = reply;
    }
    assert.ok(refused, 'the disk never filled up');
    assert.equal(refused.status, 503, refused.text);
    assert.equal(refused.body?.code, 'database_unavailable');
    await new Promise((resolve) => setTimeout(resolve, 200));
    const log = server.output.join('\n');
    assert.match(log, /database or disk is full|SQLITE_FULL/);
    assert.doesNotMatch(log, /cannot rollback/);

    rmSync(filler);
    const resumed = await call(server.url, {
      method: 'POST',
      headers: { apikey: key },
      body: userBody({ email: 'after@example.com' }),
    });
    assert.equal(resumed.status, 200, resumed.text);
    await withStore(url, async (store) => {
      for (const email of acknowledged)
        assert.ok(
          await store.data(users).findUserIdByEmail(email),
          `${email} was acknowledged and is gone`,
        );
    });
  });

  test('a batch of creations sharing one commit that finds the disk full: all 503, none written', async () => {
    const path = join(disk?.dir as string, 'deskgate.db');
    /** BATCH creations queued behind another process's write lock, so that they share one commit. */
    async function addBatch(round: number): Promise<{ emails: string[]; replies: Reply[] }> {
      const emails = Array.from({ length: BATCH }, (_, n) => `batch.${round}.${n}@example.com`);
      const lock = await holdWriteLock(path);
      try {
        const pending = Promise.all(
          emails.map((email) =>
            call(server.url, {
              method: 'POST',
              headers: { apikey: key },
              body: userBody({ email, password: BCRYPT_HASH }),
            }),
          ),
        );
        await new Promise((resolve) => setTimeout(resolve, 300));
        await lock.release();
        return { emails, replies: await pending };
      } finally {
        await lock.release();
      }
    }
    const acknowledged: string[] = [];
    const filler = fillDisk(disk?.dir as string);
    let failed: Awaited<ReturnType<typeof addBatch>> | undefined;
    try {
      for (let round = 0; round < 100 && !failed; round++) {
        const batch = await addBatch(round);
        if (batch.replies.every((r) => r.status === 200)) acknowledged.push(...batch.emails);
        else failed = batch;
      }
    } finally {
      rmSync(filler);
    }
    assert.ok(failed, 'the disk never filled up');
    assert.deepEqual(
      failed.replies.map((r) => `${r.status} ${r.body?.code}`),
      failed.emails.map(() => '503 database_unavailable'),
    );
    await withStore(url, async (store) => {
      for (const email of failed?.emails ?? [])
        assert.equal(
          await store.data(users).findUserIdByEmail(email),
          undefined,
          `${email} was refused`,
        );
      for (const email of acknowledged)
        assert.ok(
          await store.data(users).findUserIdByEmail(email),
          `${email} was acknowledged and is gone`,
        );
    });
    assert.doesNotMatch(server.output.join('\n'), /cannot rollback/);
  });
});
