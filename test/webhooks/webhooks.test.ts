import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { webhooks } from '../../src/data/webhooks/webhooks.ts';
import { DEFAULT_SCOPES } from '../../src/domain.ts';
import { describeEachDatabase } from '../helpers/each-database.ts';
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
  findDelivery,
  findEventDelivery,
  queueDelivery,
  settled,
} from '../helpers/webhook-requests.ts';

describeEachDatabase('webhooks', (database) => {
  const server = useTestServer(() => ({ database, env: WEBHOOK_TEST_ENV, notes: true }));
  let receiver: WebhookReceiver;
  before(async () => {
    receiver = await startWebhookReceiver();
  });
  after(() => receiver.close());

  test('add answers the secret once; all, specific, update and delete never show it', async () => {
    const added = dataOf(
      await server.request(
        {
          query: 'webhook',
          condition: 'add',
          parameters: {
            url: receiver.url,
            events: ['ticket.*', 'user.created'],
            description: 'CRM',
          },
        },
        { method: 'POST' },
      ),
    );
    assert.match(String(added.secret), /^whsec_[A-Za-z0-9+/]{43}=$/);
    const id = String(added.id);
    const sealed = await server.store.data(webhooks).findSealedSecret(Number(id));
    assert.ok(sealed?.startsWith('v1.'), 'sealed');
    assert.ok(
      !sealed?.includes(String(added.secret).slice(6)),
      'the secret is not stored in clear',
    );

    const all = await server.request({ query: 'webhook', condition: 'all' });
    assert.ok(!all.text.includes(String(added.secret).slice(6)));
    const listed = (dataOf(all).webhooks as Data[]).find((w) => w.id === id);
    assert.deepEqual(
      { ...listed, created: '', updated: '' },
      {
        id,
        url: receiver.url,
        events: ['ticket.*', 'user.created'],
        description: 'CRM',
        enabled: true,
        disabled_reason: null,
        failing_since: null,
        created: '',
        updated: '',
      },
    );
    const updated = dataOf(
      await server.request(
        {
          query: 'webhook',
          condition: 'update',
          parameters: { id, events: ['*'], enabled: false },
        },
        { method: 'POST' },
      ),
    );
    assert.deepEqual((updated.webhook as Data).events, ['*']);
    assert.equal((updated.webhook as Data).enabled, false);
    assert.equal(updated.secret, undefined);
    const rotated = dataOf(
      await server.request(
        { query: 'webhook', condition: 'update', parameters: { id, rotate_secret: true } },
        { method: 'POST' },
      ),
    );
    assert.match(String(rotated.secret), /^whsec_/);
    assert.notEqual(rotated.secret, added.secret);
    const specific = dataOf(
      await server.request({ query: 'webhook', condition: 'specific', parameters: { id } }),
    );
    assert.equal((specific.webhook as Data).id, id);
    assert.equal(specific.secret, undefined);
    const deleted = await server.request(
      { query: 'webhook', condition: 'delete', parameters: { id } },
      { method: 'DELETE' },
    );
    assert.equal(dataOf(deleted), id);
    const gone = await server.request({
      query: 'webhook',
      condition: 'specific',
      parameters: { id },
    });
    assert.equal(gone.status, 204);
  });

  test('bad input is a 400 naming the field; nothing is added', async () => {
    const before = dataOf(await server.request({ query: 'webhook', condition: 'all' })).total;
    for (const [parameters, field] of [
      [{ url: receiver.url, events: ['tickets.*'] }, 'parameters.events.0'],
      [{ url: receiver.url, events: [] }, 'parameters.events'],
      [{ url: 'ftp://example.com/x', events: ['*'] }, 'parameters.url'],
      [{ url: 'https://user:pw@example.com/x', events: ['*'] }, 'parameters.url'],
      [{ url: receiver.url, events: ['*'], secret: 'mine' }, 'parameters.secret'],
    ] as const) {
      const reply = await server.request(
        { query: 'webhook', condition: 'add', parameters },
        { method: 'POST' },
      );
      assert.equal(reply.status, 400, reply.text);
      assert.equal(reply.body?.code, 'invalid_parameters');
      assert.ok(
        reply.body?.errors?.some((e) => e.field === field),
        `${field} in ${reply.text}`,
      );
    }
    assert.equal(
      dataOf(await server.request({ query: 'webhook', condition: 'all' })).total,
      before,
    );
  });

  test('a key subscribes only to events it may read in the feed: 403 naming them, nothing added', async () => {
    const { key } = await server.createKey({ scopes: ['webhooks:manage', 'tickets:read'] });
    const count = async () =>
      dataOf(await server.request({ query: 'webhook', condition: 'all' })).total;
    const before = await count();
    for (const events of [['user.created'], ['ticket.*'], ['*'], ['task.created']]) {
      const refused = await server.request(
        {
          query: 'webhook',
          condition: 'add',
          parameters: { url: receiver.url, events },
        },
        { method: 'POST', key },
      );
      assert.equal(refused.status, 403, `${events} ${refused.text}`);
      assert.equal(refused.body?.code, 'insufficient_scope');
    }
    assert.equal(await count(), before);
    const allowed = await server.request(
      {
        query: 'webhook',
        condition: 'add',
        parameters: { url: receiver.url, events: ['ticket.created', 'ticket.reply.created'] },
      },
      { method: 'POST', key },
    );
    assert.equal(allowed.status, 200, allowed.text);
  });

  test('webhooks:manage is never a default scope', async () => {
    assert.ok(!DEFAULT_SCOPES.includes('webhooks:manage'));
    const { key } = await server.createKey({ scopes: [...DEFAULT_SCOPES] });
    const reply = await server.request({ query: 'webhook', condition: 'all' }, { key });
    assert.equal(reply.status, 403, reply.text);
    assert.equal(reply.body?.code, 'insufficient_scope');
  });

  test('events of the feed reach the webhooks subscribed to their type', async () => {
    const users = await startWebhookReceiver('/users');
    const tickets = await startWebhookReceiver('/tickets');
    try {
      const userHook = await addWebhook(server, users, ['user.*']);
      await addWebhook(server, tickets, ['ticket.created']);
      const email = `feed-${Date.now()}@example.com`;
      const userId = String(await addUser(server, email));
      await users.waitFor((received) =>
        received.some(
          (r) => r.event.type === 'user.created' && (r.event.user as Data)?.id === Number(userId),
        ),
      );
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

  test('webhook/test posts a ping now, signed as Standard Webhooks says', async () => {
    const id = await addWebhook(server, receiver);
    const count = receiver.received.length;
    receiver.answer = () => ({ status: 204 });
    const reply = dataOf(
      await server.request(
        { query: 'webhook', condition: 'test', parameters: { id } },
        { method: 'POST' },
      ),
    );
    assert.equal(reply.delivered, true);
    assert.equal(reply.status, 204);
    assert.equal(typeof reply.latency_ms, 'number');
    const ping = receiver.received[count];
    assert.ok(ping?.verified, ping?.verifyError);
    assert.ok(ping.clientVerified, "the client's verifyWebhook accepts what the reference accepts");
    assert.equal(ping.event.type, 'webhook.ping');
    assert.equal(ping.event.id, ping.id);
    assert.match(String(ping.headers['webhook-signature']), /^v1,[A-Za-z0-9+/]+=*$/);
    const logged = await findDelivery(server, id, String(reply.delivery_id));
    assert.equal(logged.status, 'delivered');
    assert.equal(logged.response_status, 204);
  });

  test('a receiver that fails then recovers gets the delivery, same webhook-id each time', async () => {
    const id = await addWebhook(server, receiver);
    receiver.answer = (_d, seen) =>
      seen === 1
        ? { status: 200 }
        : seen === 2
          ? { status: 503 }
          : seen === 3
            ? { status: 500 }
            : { status: 200 };
    const { eventId, deliveryId } = await queueDelivery(server, id);
    const delivery = await settled(server, id, deliveryId);
    assert.equal(delivery.status, 'delivered', JSON.stringify(delivery));
    assert.equal(delivery.attempts, 3);
    assert.equal(delivery.response_status, 200);
    const attempts = receiver.received.filter((r) => r.id === eventId);
    assert.equal(attempts.length, 4);
    assert.ok(attempts.every((r) => r.verified && r.clientVerified));
  });

  test('a 400 is not retried', async () => {
    const id = await addWebhook(server, receiver);
    receiver.answer = (_d, seen) =>
      seen === 1 ? { status: 200 } : { status: 400, body: 'no thanks' };
    const { eventId, deliveryId } = await queueDelivery(server, id);
    const delivery = await settled(server, id, deliveryId);
    assert.equal(delivery.status, 'failed');
    assert.equal(delivery.attempts, 1);
    assert.equal(delivery.response_status, 400);
    assert.equal(delivery.response_excerpt, 'no thanks');
    assert.equal(receiver.received.filter((r) => r.id === eventId).length, 2);
  });

  test('Retry-After is honoured', async () => {
    const id = await addWebhook(server, receiver);
    receiver.answer = (_d, seen) =>
      seen === 2 ? { status: 429, headers: { 'retry-after': '2' } } : { status: 200 };
    const { eventId, deliveryId } = await queueDelivery(server, id);
    const delivery = await settled(server, id, deliveryId);
    assert.equal(delivery.status, 'delivered');
    const [, refused, accepted] = receiver.received.filter((r) => r.id === eventId);
    assert.ok(refused && accepted);
    // The retry waits at least the 2 s asked for, though the schedule says 50 ms.
    assert.ok(accepted.at - refused.at >= 1_900, `${accepted.at - refused.at} ms`);
  });

  test('retries stop when the schedule runs out', async () => {
    const id = await addWebhook(server, receiver);
    receiver.answer = (_d, seen) => (seen === 1 ? { status: 200 } : { status: 500 });
    const { eventId, deliveryId } = await queueDelivery(server, id);
    const delivery = await settled(server, id, deliveryId);
    assert.equal(delivery.status, 'failed');
    assert.equal(delivery.attempts, 4);
    assert.equal(receiver.received.filter((r) => r.id === eventId).length, 5);
    const failed = dataOf(
      await server.request({
        query: 'webhook',
        condition: 'deliveries',
        parameters: { webhook_id: id, status: 'failed' },
      }),
    );
    assert.deepEqual(
      (failed.deliveries as Data[]).map((d) => d.id),
      [deliveryId],
    );
  });

  test('the address guard refuses loopback, private, metadata and plain-http public targets', async (t) => {
    const strict = await startTestServer(t, {
      database,
      env: { ...WEBHOOK_TEST_ENV, DESKGATE_WEBHOOK_ALLOW_PRIVATE: '' },
    });
    for (const url of [
      'http://127.0.0.1:9/x',
      'https://127.0.0.1:9/x',
      'https://[::1]/x',
      'https://[::ffff:127.0.0.1]/x',
      'https://10.1.2.3/x',
      'https://192.168.1.1/x',
      'https://169.254.169.254/latest/meta-data',
      'https://100.100.100.200/x',
      'http://93.184.216.34/x',
      `http://localhost:${receiver.port}/x`,
    ]) {
      const reply = await strict.request(
        { query: 'webhook', condition: 'add', parameters: { url, events: ['*'] } },
        { method: 'POST' },
      );
      assert.equal(reply.status, 400, `${url}: ${reply.text}`);
      assert.equal(reply.body?.errors?.[0]?.field, 'parameters.url', url);
    }
    // Checked again at delivery: a webhook added where loopback was allowed, tested where not.
    const id = await addWebhook(server, receiver);
    const count = receiver.received.length;
    const ping = dataOf(
      await strict.request(
        { query: 'webhook', condition: 'test', parameters: { id } },
        { method: 'POST' },
      ),
    );
    assert.equal(ping.delivered, false);
    assert.equal(ping.status, null);
    assert.match(String(ping.error), /address refused.*DESKGATE_WEBHOOK_ALLOW_PRIVATE/);
    assert.equal(receiver.received.length, count);
  });

  test('redirects are not followed; a silent receiver times out', async (t) => {
    const id = await addWebhook(server, receiver);
    receiver.answer = () => ({ status: 302, headers: { location: 'http://169.254.169.254/' } });
    const count = receiver.received.length;
    const redirected = dataOf(
      await server.request(
        { query: 'webhook', condition: 'test', parameters: { id } },
        { method: 'POST' },
      ),
    );
    assert.equal(redirected.delivered, false);
    assert.equal(redirected.status, 302);
    assert.match(String(redirected.error), /redirect not followed/);
    assert.equal(receiver.received.length, count + 1);

    const quick = await startTestServer(t, {
      database,
      env: { ...WEBHOOK_TEST_ENV, DESKGATE_WEBHOOK_TIMEOUT: '300ms' },
    });
    receiver.answer = () => 'hang';
    const silent = dataOf(
      await quick.request(
        { query: 'webhook', condition: 'test', parameters: { id } },
        { method: 'POST' },
      ),
    );
    assert.equal(silent.delivered, false);
    assert.match(String(silent.error), /no answer within 300 ms/);
    receiver.answer = () => ({ status: 200 });
  });

  test('without DESKGATE_WEBHOOK_ENCRYPTION_KEY: add is 501 and a start with webhooks refuses', async (t) => {
    await addWebhook(server, receiver);
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

describeEachDatabase('webhooks made while the dispatcher had none', (database) => {
  const server = useTestServer(() => ({ database, env: WEBHOOK_TEST_ENV, notes: true }));

  const created = (receiver: WebhookReceiver, userId: number) =>
    receiver.received.some(
      (r) => r.event.type === 'user.created' && (r.event.user as Data)?.id === userId,
    );

  test('with no webhook nothing is queued; a webhook made later gets no event older than itself', async () => {
    const first = await startWebhookReceiver('/first');
    const second = await startWebhookReceiver('/second');
    try {
      // The dispatcher's position is stored while a webhook exists, then no webhook is left.
      const id = await addWebhook(server, first, ['user.*']);
      const seen = await addUser(server, `seen-${Date.now()}@example.com`);
      await first.waitFor(() => created(first, seen));
      dataOf(
        await server.request(
          { query: 'webhook', condition: 'delete', parameters: { id } },
          { method: 'POST' },
        ),
      );
      const before = await addUser(server, `before-${Date.now()}@example.com`);
      // A webhook made in a later second than that event (times are whole seconds).
      await new Promise((resolve) => setTimeout(resolve, 1100));
      await addWebhook(server, second, ['user.*']);
      const afterwards = await addUser(server, `after-${Date.now()}@example.com`);
      await second.waitFor(() => created(second, afterwards));
      assert.equal(created(second, before), false, 'an event older than the webhook was sent');
    } finally {
      await first.close();
      await second.close();
    }
  });
});

describeEachDatabase("events before the dispatcher's first turn", (database) => {
  test('reach the first webhook, though no instance was dispatching when they happened', async (t) => {
    const receiver = await startWebhookReceiver();
    t.after(() => receiver.close());
    // An instance that sends nothing (and so dispatches nothing) makes the webhook and the event.
    const quiet = await startTestServer(t, {
      database,
      env: { ...WEBHOOK_TEST_ENV, DESKGATE_WEBHOOK_CONCURRENCY: '0' },
      notes: true,
    });
    await addWebhook(quiet, receiver, ['user.*']);
    const userId = await addUser(quiet, `first-turn-${Date.now()}@example.com`);
    await quiet.stop();
    // The first dispatching instance starts in a later second (event times are whole seconds).
    await new Promise((resolve) => setTimeout(resolve, 1100));
    await startTestServer(t, { database, env: WEBHOOK_TEST_ENV, notes: true });
    await receiver.waitFor((received) =>
      received.some(
        (r) => r.event.type === 'user.created' && (r.event.user as Data)?.id === userId,
      ),
    );
  });
});
