import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { grantOsticketKey } from '../helpers/osticket-key-grant.ts';
import { startTestServer } from '../helpers/test-server.ts';
import {
  startWebhookReceiver,
  WEBHOOK_TEST_ENV,
  type WebhookReceiver,
} from '../helpers/webhook-receiver.ts';
import {
  createOsticketDatabase,
  OSTICKET_SKIP,
  type OsticketDatabase,
  osticketEnv,
} from './osticket-database.ts';

describe('osTicket mode: webhooks in deskgate_webhooks, managed by a granted osTicket key', {
  skip: OSTICKET_SKIP,
}, () => {
  let database: OsticketDatabase;
  let receiver: WebhookReceiver;
  before(async () => {
    database = await createOsticketDatabase();
    receiver = await startWebhookReceiver();
  });
  after(async () => {
    await receiver.close();
    await database.drop();
  });

  test('only with the grant; the ping and the events of its writes arrive signed', {
    timeout: 90_000,
  }, async (t) => {
    const server = await startTestServer(t, {
      database: database.url,
      env: { ...osticketEnv(database), ...WEBHOOK_TEST_ENV },
      ownKey: false,
    });
    const key = database.writeKey.key;
    const add = {
      query: 'webhook',
      condition: 'add',
      parameters: { url: receiver.url, events: ['*'] },
    };
    const refused = await server.request(add, { method: 'POST', key });
    assert.equal(refused.status, 403, refused.text);
    assert.match(String(refused.body?.data), /webhooks:manage/);

    await grantOsticketKey(database, database.writeKey.id, [
      '--scope',
      'write,users:read,tickets:read,tickets:write,webhooks:manage',
      '--any-agent',
    ]);
    const added = await server.request(add, { method: 'POST', key });
    assert.equal(added.status, 200, added.text);
    const { id, secret } = added.body?.data as { id: string; secret: string };
    receiver.secret = secret;
    const stored = await database.query<{ secret_sealed: string }>(
      'SELECT secret_sealed FROM deskgate_webhooks WHERE id = ?',
      [Number(id)],
    );
    assert.ok(stored[0]?.secret_sealed.startsWith('v1.'));

    const ping = await server.request(
      { query: 'webhook', condition: 'test', parameters: { id } },
      { method: 'POST', key },
    );
    assert.equal((ping.body?.data as { delivered: boolean }).delivered, true, ping.text);
    assert.ok(receiver.received.at(-1)?.verified);

    // A user made through deskgate: osTicket's own history → the feed → the webhook.
    const user = await server.request(
      {
        query: 'user',
        condition: 'add',
        parameters: {
          name: 'Hook Reader',
          email: 'hook-reader@example.com',
          password: 'secret-password',
          timezone: 'UTC',
          phone: 0,
          org_id: 0,
          default_email_id: 1,
          status: 0,
        },
      },
      { method: 'POST', key },
    );
    assert.equal(user.status, 200, user.text);
    const userId = Number(user.body?.data);
    await receiver.waitFor((received) =>
      received.some(
        (r) => r.event.type === 'user.created' && (r.event.user as { id?: number })?.id === userId,
      ),
    );
    const event = receiver.received.find((r) => r.event.type === 'user.created');
    assert.ok(event?.verified && event.clientVerified);
    assert.equal(event.id, event.event.id);
  });
});
