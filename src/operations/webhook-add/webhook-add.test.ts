import assert from 'node:assert/strict';
import { test } from 'node:test';
import { describeEachDatabaseKind } from '../../../test/helpers/each-database.ts';
import { dataOf, useWebhookSuite } from '../../../test/helpers/webhook-requests.ts';
import { webhooks } from '../../data/webhooks/webhooks.ts';

describeEachDatabaseKind('webhook/add', (database) => {
  const suite = useWebhookSuite(database);
  const { server } = suite;

  test('answers the secret once, stored sealed', async () => {
    const added = dataOf(
      await server.request(
        {
          query: 'webhook',
          condition: 'add',
          parameters: {
            url: suite.receiver.url,
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
  });

  test('bad input is a 400 naming the field; nothing is added', async () => {
    const before = dataOf(await server.request({ query: 'webhook', condition: 'all' })).total;
    for (const [parameters, field] of [
      [{ url: suite.receiver.url, events: ['tickets.*'] }, 'parameters.events.0'],
      [{ url: suite.receiver.url, events: [] }, 'parameters.events'],
      [{ url: 'ftp://example.com/x', events: ['*'] }, 'parameters.url'],
      [{ url: 'https://user:pw@example.com/x', events: ['*'] }, 'parameters.url'],
      [{ url: suite.receiver.url, events: ['*'], secret: 'mine' }, 'parameters.secret'],
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
    const key = await suite.keyWith(['webhooks:manage', 'tickets:read']);
    const count = async () =>
      dataOf(await server.request({ query: 'webhook', condition: 'all' })).total;
    const before = await count();
    for (const events of [['user.created'], ['ticket.*'], ['*'], ['task.created']]) {
      const refused = await server.request(
        {
          query: 'webhook',
          condition: 'add',
          parameters: { url: suite.receiver.url, events },
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
        parameters: { url: suite.receiver.url, events: ['ticket.created', 'ticket.reply.created'] },
      },
      { method: 'POST', key },
    );
    assert.equal(allowed.status, 200, allowed.text);
  });

  test('the address guard refuses loopback, private, metadata and plain-http public targets', async (t) => {
    const strict = await suite.startServer(t, { DESKGATE_WEBHOOK_ALLOW_PRIVATE: '' });
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
      `http://localhost:${suite.receiver.port}/x`,
    ]) {
      const reply = await strict.request(
        { query: 'webhook', condition: 'add', parameters: { url, events: ['*'] } },
        { method: 'POST' },
      );
      assert.equal(reply.status, 400, `${url}: ${reply.text}`);
      assert.equal(reply.body?.errors?.[0]?.field, 'parameters.url', url);
    }
  });
});
