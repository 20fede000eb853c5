import assert from 'node:assert/strict';
import { test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { describeWithDatabase, SQLITE } from '../helpers/each-database.ts';
import { holdWriteLock } from '../helpers/sqlite-write-lock.ts';
import { useTestServer } from '../helpers/test-server.ts';
import { startWebhookReceiver, WEBHOOK_TEST_ENV } from '../helpers/webhook-receiver.ts';
import { addWebhook } from '../helpers/webhook-requests.ts';

/** The writes the server holds for SQLite's write lock, read from /metrics. */
async function writesWaiting(origin: string): Promise<number> {
  const text = await (await fetch(`${origin}/metrics`)).text();
  const line = text.split('\n').find((l) => l.startsWith('deskgate_sqlite_writes_waiting '));
  assert.ok(line, 'no deskgate_sqlite_writes_waiting in /metrics');
  return Number(line.split(' ')[1]);
}

// The delivery worker polls every DESKGATE_WEBHOOK_POLL_INTERVAL on every instance: a poll with
// nothing due must not queue for SQLite's one write lock, which the requests' writes share.
describeWithDatabase('an idle webhook delivery worker on SQLite', SQLITE, (database) => {
  const server = useTestServer(() => ({ database, env: WEBHOOK_TEST_ENV }));

  test('takes no write lock while no delivery is due', async (t) => {
    const receiver = await startWebhookReceiver();
    t.after(() => receiver.close());
    await addWebhook(server, receiver, ['user.*']);
    // The dispatcher's first turn stores its position (a write): let it happen first.
    await sleep(500);
    const lock = await holdWriteLock(database.sqlitePath as string);
    try {
      // Twenty polls at 50 ms while another process holds the lock.
      for (let i = 0; i < 20; i++) {
        assert.equal(await writesWaiting(server.origin), 0, `a write queued at poll ${i}`);
        await sleep(50);
      }
    } finally {
      await lock.release();
    }
  });
});
