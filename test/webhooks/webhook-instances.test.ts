import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { DATABASES } from '../helpers/databases.ts';
import { describeEachDatabase, describeWithDatabase } from '../helpers/each-database.ts';
import { call } from '../helpers/http.ts';
import { createKey, startServer } from '../helpers/server.ts';
import { startTestServer } from '../helpers/test-server.ts';
import {
  startWebhookReceiver,
  WEBHOOK_TEST_ENV,
  type WebhookReceiver,
} from '../helpers/webhook-receiver.ts';
import { dataOf, userAddBody } from '../helpers/webhook-requests.ts';

const userAdd = (n: number) =>
  userAddBody(`Instance ${n}`, `instance-${n}-${Date.now()}@example.com`);

const SERVER_DATABASES = DATABASES.filter((kind) => kind.name !== 'sqlite');

for (const kind of SERVER_DATABASES) {
  describeWithDatabase(`two instances on ${kind.name} share the deliveries`, kind, (database) => {
    let receiver: WebhookReceiver;
    before(async () => {
      receiver = await startWebhookReceiver();
    });
    after(() => receiver.close());

    test('every event is delivered, and exactly once', async (t) => {
      const env = { ...WEBHOOK_TEST_ENV, DESKGATE_WEBHOOK_CONCURRENCY: '3' };
      const one = await startTestServer(t, { database, env });
      const two = await startTestServer(t, { database, env });
      const added = dataOf(
        await one.request(
          {
            query: 'webhook',
            condition: 'add',
            parameters: { url: receiver.url, events: ['user.*'] },
          },
          { method: 'POST' },
        ),
      );
      receiver.secret = String(added.secret);
      const users = 40;
      await Promise.all(
        Array.from({ length: users }, (_, n) =>
          (n % 2 === 0 ? one : two).request(userAdd(n), { method: 'POST' }).then(dataOf),
        ),
      );
      await receiver.waitFor((received) => new Set(received.map((r) => r.id)).size >= users);
      // Both instances keep polling: give a duplicate the chance to show, then count.
      const log = async () =>
        dataOf(
          await two.request({
            query: 'webhook',
            condition: 'deliveries',
            parameters: { webhook_id: added.id, status: 'pending' },
          }),
        );
      while (Number((await log()).total) > 0) await new Promise((r) => setTimeout(r, 50));
      const perId = new Map<string, number>();
      for (const r of receiver.received) perId.set(r.id, (perId.get(r.id) ?? 0) + 1);
      assert.equal(perId.size, users);
      assert.deepEqual([...new Set(perId.values())], [1], JSON.stringify([...perId]));
      assert.ok(receiver.received.every((r) => r.verified && r.event.type === 'user.created'));
    });
  });
}

describeEachDatabase('a server killed (kill -9) mid-delivery', (database) => {
  let receiver: WebhookReceiver;
  before(async () => {
    receiver = await startWebhookReceiver();
  });
  after(() => receiver.close());

  test('delivers after its restart', async () => {
    const env = { ...WEBHOOK_TEST_ENV, DESKGATE_WEBHOOK_TIMEOUT: '1s' };
    const { key } = await createKey(database.url, {
      scopes: ['write', 'users:read', 'webhooks:manage'],
    });
    const first = await startServer({ databaseUrl: database.url, env });
    let eventId = '';
    try {
      const request = (body: unknown, method: string) =>
        call(first.url, { method, headers: { apikey: key }, body });
      const added = dataOf(
        await request(
          {
            query: 'webhook',
            condition: 'add',
            parameters: { url: receiver.url, events: ['user.*'] },
          },
          'POST',
        ),
      );
      receiver.secret = String(added.secret);
      // The first attempt never gets an answer: the server is killed while it waits.
      receiver.answer = (_delivery, seen) => (seen === 1 ? 'hang' : { status: 200 });
      dataOf(await request(userAdd(1), 'POST'));
      await receiver.waitFor((received) => received.length === 1);
      eventId = receiver.received[0]?.id ?? '';
      assert.equal(await first.stop('SIGKILL'), null);
    } finally {
      await first.stop('SIGKILL');
    }
    const second = await startServer({ databaseUrl: database.url, env });
    try {
      await receiver.waitFor((received) => received.filter((r) => r.id === eventId).length === 2);
      const [lost, delivered] = receiver.received.filter((r) => r.id === eventId);
      assert.ok(lost?.verified && delivered?.verified);
      assert.deepEqual(delivered.event, lost.event);
    } finally {
      await second.stop();
    }
  });
});
