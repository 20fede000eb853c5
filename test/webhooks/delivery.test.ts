import assert from 'node:assert/strict';
import { after, before, type TestContext, test } from 'node:test';
import { sql } from 'kysely';
import { describeEachDatabase, type SuiteDatabase } from '../helpers/each-database.ts';
import { startTestServer, useTestServer } from '../helpers/test-server.ts';
import { ticketAddBody } from '../helpers/tickets.ts';
import {
  startWebhookReceiver,
  TEST_ENCRYPTION_KEY,
  WEBHOOK_TEST_ENV,
  type WebhookReceiver,
} from '../helpers/webhook-receiver.ts';
import {
  addUser,
  addWebhook,
  type Data,
  dataOf,
  findEventDelivery,
  queueDelivery,
  settled,
  userCreatedIn,
  useWebhookSuite,
} from '../helpers/webhook-requests.ts';
import { withDatabase } from '../support/database-rows.ts';

describeEachDatabase('webhook delivery', (database) => {
  const suite = useWebhookSuite(database);
  const { server } = suite;

  test('events of the feed reach the webhooks subscribed to their type', async () => {
    const users = await startWebhookReceiver('/users');
    const tickets = await startWebhookReceiver('/tickets');
    try {
      const userHook = await addWebhook(server, users, ['user.*']);
      await addWebhook(server, tickets, ['ticket.created']);
      const email = `feed-${Date.now()}@example.com`;
      const userId = String(await addUser(server, email));
      await users.waitFor(() => userCreatedIn(users, Number(userId)));
      const delivery = users.received.find((r) => r.event.type === 'user.created');
      assert.ok(delivery?.verified, delivery?.verifyError);
      assert.equal(delivery.id, delivery.event.id);
      assert.match(delivery.id, /^evt_/);
      const logged = await findEventDelivery(server, userHook, delivery.id);
      assert.equal((await settled(server, userHook, String(logged.id))).status, 'delivered');
      // A ticket webhook gets no user event; a ticket of that user reaches it.
      assert.equal(tickets.received.filter((r) => r.event.type === 'user.created').length, 0);
      const ticket = await server.request(ticketAddBody(Number(userId)), { method: 'POST' });
      const ticketId = Number(dataOf(ticket));
      await tickets.waitFor((received) =>
        received.some((r) => (r.event.ticket as Data | undefined)?.id === ticketId),
      );
      const created = tickets.received.filter(
        (r) => (r.event.ticket as Data | undefined)?.id === ticketId,
      );
      assert.deepEqual(
        created.map((r) => r.event.type),
        ['ticket.created'],
      );
      assert.ok(created.every((r) => r.verified));
    } finally {
      await users.close();
      await tickets.close();
    }
  });

  test('Retry-After is honoured', async () => {
    const id = await addWebhook(server, suite.receiver);
    suite.receiver.answer = (_d, seen) =>
      seen === 2 ? { status: 429, headers: { 'retry-after': '2' } } : { status: 200 };
    const { eventId, deliveryId } = await queueDelivery(server, id);
    const delivery = await settled(server, id, deliveryId);
    assert.equal(delivery.status, 'delivered');
    const [, refused, accepted] = suite.receiver.received.filter((r) => r.id === eventId);
    assert.ok(refused && accepted);
    // The retry waits at least the 2 s asked for, though the schedule says 50 ms.
    assert.ok(accepted.at - refused.at >= 1_900, `${accepted.at - refused.at} ms`);
  });

  test('without DESKGATE_WEBHOOK_ENCRYPTION_KEY: add is 501 and a start with webhooks refuses', async (t) => {
    await addWebhook(server, suite.receiver);
    const env = { ...WEBHOOK_TEST_ENV, DESKGATE_WEBHOOK_ENCRYPTION_KEY: '' };
    await assert.rejects(
      startTestServer(t, { database, env }),
      /DESKGATE_WEBHOOK_ENCRYPTION_KEY is not set/,
    );
    const other = 'AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8=';
    await assert.rejects(
      startTestServer(t, { database, env: { ...env, DESKGATE_WEBHOOK_ENCRYPTION_KEY: other } }),
      /DESKGATE_WEBHOOK_ENCRYPTION_KEY does not open/,
    );
    // The old key after a new one: both work (rotation).
    const rotated = await startTestServer(t, {
      database,
      env: { ...env, DESKGATE_WEBHOOK_ENCRYPTION_KEY: `${other},${TEST_ENCRYPTION_KEY}` },
    });
    assert.ok(rotated.listening);
  });
});

describeEachDatabase('a webhook that fails for days', (database) => {
  const failing = useTestServer(() => ({
    notes: true,
    database,
    env: {
      ...WEBHOOK_TEST_ENV,
      DESKGATE_WEBHOOK_RETRY_DELAYS: Array(40).fill('100ms').join(','),
      DESKGATE_WEBHOOK_DISABLE_AFTER: '1s',
    },
  }));
  let receiver: WebhookReceiver;
  before(async () => {
    receiver = await startWebhookReceiver();
  });
  after(() => receiver.close());

  // A database of its own: another instance's shorter schedule would give up first.
  test('a webhook failing for DESKGATE_WEBHOOK_DISABLE_AFTER is disabled, said in metrics and logs', {
    timeout: 120_000,
  }, async () => {
    const id = await addWebhook(failing, receiver);
    receiver.answer = (_d, seen) => (seen === 1 ? { status: 200 } : { status: 503 });
    await queueDelivery(failing, id);
    for (;;) {
      const webhook = dataOf(
        await failing.request({ query: 'webhook', condition: 'specific', parameters: { id } }),
      ).webhook as Data;
      if (webhook.enabled === false) {
        assert.match(String(webhook.disabled_reason), /failed/);
        assert.notEqual(webhook.failing_since, null);
        break;
      }
      await new Promise((r) => setTimeout(r, 50));
    }
    assert.ok(failing.output.some((line) => line.includes('webhook disabled')));
    const metrics = { text: await (await fetch(`${failing.origin}/metrics`)).text() };
    assert.match(metrics.text, /^deskgate_webhooks_disabled_total 1$/m);
    assert.match(metrics.text, /^deskgate_webhook_deliveries_total\{outcome="retrying"\} [1-9]/m);
    assert.match(metrics.text, /^deskgate_webhook_queue_depth \d+$/m);
    assert.match(metrics.text, /^deskgate_webhook_oldest_pending_age_seconds /m);
    // Enabled again, it resumes and its failures are forgotten.
    receiver.answer = () => ({ status: 200 });
    const resumed = dataOf(
      await failing.request(
        { query: 'webhook', condition: 'update', parameters: { id, enabled: true } },
        { method: 'POST' },
      ),
    ).webhook as Data;
    assert.equal(resumed.enabled, true);
    assert.equal(resumed.failing_since, null);
  });
});

/** Waits for the start of a second, so that the next few requests fall in the same one. */
async function startOfASecond(): Promise<void> {
  await new Promise((resolve) => setTimeout(resolve, 1_000 - (Date.now() % 1_000) + 5));
}

/** Waits until the user made after the webhook reached it, then checks the one before never did. */
async function assertSentFromTheWebhooksCreation(
  receiver: WebhookReceiver,
  before: number,
  after: number,
): Promise<void> {
  await receiver.waitFor(() => userCreatedIn(receiver, after));
  assert.equal(userCreatedIn(receiver, before), false, 'an event older than the webhook was sent');
}

describeEachDatabase('webhooks made while the dispatcher had none', (database) => {
  const server = useTestServer(() => ({ database, env: WEBHOOK_TEST_ENV, notes: true }));

  test('with no webhook nothing is queued; a webhook made later gets no event older than itself', async () => {
    const first = await startWebhookReceiver('/first');
    const second = await startWebhookReceiver('/second');
    try {
      // The dispatcher's position is stored while a webhook exists, then no webhook is left.
      const id = await addWebhook(server, first, ['user.*']);
      const seen = await addUser(server, `seen-${Date.now()}@example.com`);
      await first.waitFor(() => userCreatedIn(first, seen));
      dataOf(
        await server.request(
          { query: 'webhook', condition: 'delete', parameters: { id } },
          { method: 'POST' },
        ),
      );
      // The event and the webhook in the same second, where their times cannot tell them apart.
      await startOfASecond();
      const before = await addUser(server, `before-${Date.now()}@example.com`);
      await addWebhook(server, second, ['user.*']);
      const afterwards = await addUser(server, `after-${Date.now()}@example.com`);
      await assertSentFromTheWebhooksCreation(second, before, afterwards);
    } finally {
      await first.close();
      await second.close();
    }
  });
});

describeEachDatabase("events before the dispatcher's first turn", (database) => {
  /** An instance that sends nothing, and so dispatches nothing. */
  const startQuietServer = (t: TestContext, on: SuiteDatabase) =>
    startTestServer(t, {
      database: on,
      env: { ...WEBHOOK_TEST_ENV, DESKGATE_WEBHOOK_CONCURRENCY: '0' },
      notes: true,
    });

  test('reach the first webhook, though no instance was dispatching when they happened', async (t) => {
    const receiver = await startWebhookReceiver();
    t.after(() => receiver.close());
    // An instance that sends nothing (and so dispatches nothing) makes the webhook and the event.
    const quiet = await startQuietServer(t, database);
    await addWebhook(quiet, receiver, ['user.*']);
    const userId = await addUser(quiet, `first-turn-${Date.now()}@example.com`);
    await quiet.stop();
    // The first dispatching instance starts in a later second (event times are whole seconds).
    await new Promise((resolve) => setTimeout(resolve, 1100));
    await startTestServer(t, { database, env: WEBHOOK_TEST_ENV, notes: true });
    await receiver.waitFor(() => userCreatedIn(receiver, userId));
  });

  test('a webhook made before its feed position was recorded gets the events from its creation on', async (t) => {
    const receiver = await startWebhookReceiver();
    t.after(() => receiver.close());
    const quiet = await startQuietServer(t, database);
    const before = await addUser(quiet, `undated-before-${Date.now()}@example.com`);
    // Its creation a second later than that event, and no position: as migration 018 left it.
    await new Promise((resolve) => setTimeout(resolve, 1100));
    const id = await addWebhook(quiet, receiver, ['user.*']);
    await withDatabase(database.url, (db) =>
      sql`UPDATE webhooks SET after_event = NULL WHERE id = ${Number(id)}`.execute(db),
    );
    const after = await addUser(quiet, `undated-after-${Date.now()}@example.com`);
    await quiet.stop();
    await startTestServer(t, { database, env: WEBHOOK_TEST_ENV, notes: true });
    await assertSentFromTheWebhooksCreation(receiver, before, after);
  });

  test('an event in the webhook’s own second, but before it was made, is not the webhook’s', async (t) => {
    const receiver = await startWebhookReceiver();
    t.after(() => receiver.close());
    const quiet = await startQuietServer(t, database);
    await startOfASecond();
    const before = await addUser(quiet, `own-second-before-${Date.now()}@example.com`);
    await addWebhook(quiet, receiver, ['user.*']);
    const after = await addUser(quiet, `own-second-after-${Date.now()}@example.com`);
    await quiet.stop();
    await startTestServer(t, { database, env: WEBHOOK_TEST_ENV, notes: true });
    await assertSentFromTheWebhooksCreation(receiver, before, after);
  });
});
