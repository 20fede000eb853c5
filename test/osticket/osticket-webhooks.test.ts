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
  insertOpenedTicket,
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

  test('only with the grant; the secret sealed in deskgate_webhooks; the ping arrives signed', async (t) => {
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
      // A webhook of every event (`*`) receives notes and tasks too: the key must read them.
      '--notes',
      '--any-agent',
    ]);
    const added = await server.request(add, { method: 'POST', key });
    assert.equal(added.status, 200, added.text);
    const answer = added.body?.data as { id?: string; secret?: string } | undefined;
    const id = String(answer?.id);
    const secret = String(answer?.secret);
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
    const pinged = ping.body?.data as { delivered?: boolean } | undefined;
    assert.equal(pinged?.delivered, true, ping.text);
    assert.ok(receiver.received.at(-1)?.verified);

    // An event of osTicket's own history, read into the feed, goes through the delivery queue.
    for (let tries = 0; tries < 60; tries++) {
      if ((await database.query('SELECT source FROM deskgate_event_positions')).length > 0) break;
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    await database.query(
      "INSERT IGNORE INTO ost_event (name, description) VALUES ('created', 'created')",
    );
    const { ticketId } = await insertOpenedTicket(database);
    await receiver.waitFor((received) =>
      received.some(
        (r) =>
          r.event.type === 'ticket.created' &&
          (r.event.ticket as { id?: number } | undefined)?.id === ticketId,
      ),
    );
    const delivered = receiver.received.find((r) => r.event.type === 'ticket.created');
    assert.ok(delivered?.verified, delivered?.verifyError);
  });
});
