import assert from 'node:assert/strict';
import { test } from 'node:test';
import { describeEachDatabaseKind } from '../../../test/helpers/each-database.ts';
import {
  addWebhook,
  findDelivery,
  pingWebhook,
  useWebhookSuite,
} from '../../../test/helpers/webhook-requests.ts';

describeEachDatabaseKind('webhook/test', (database) => {
  const suite = useWebhookSuite(database);
  const { server } = suite;

  test('webhook/test posts a ping now, signed as Standard Webhooks says', async () => {
    const id = await addWebhook(server, suite.receiver);
    const count = suite.receiver.received.length;
    suite.receiver.answer = () => ({ status: 204 });
    const reply = await pingWebhook(server, id);
    assert.equal(reply.delivered, true);
    assert.equal(reply.status, 204);
    assert.equal(typeof reply.latency_ms, 'number');
    const ping = suite.receiver.received[count];
    assert.ok(ping?.verified, ping?.verifyError);
    assert.ok(ping.clientVerified, "the client's verifyWebhook accepts what the reference accepts");
    assert.equal(ping.event.type, 'webhook.ping');
    assert.equal(ping.event.id, ping.id);
    assert.match(String(ping.headers['webhook-signature']), /^v1,[A-Za-z0-9+/]+=*$/);
    const logged = await findDelivery(server, id, String(reply.delivery_id));
    assert.equal(logged.status, 'delivered');
    assert.equal(logged.response_status, 204);
  });

  test('the address guard is checked again at delivery', async (t) => {
    const strict = await suite.startServer(t, { DESKGATE_WEBHOOK_ALLOW_PRIVATE: '' });
    // Checked again at delivery: a webhook added where loopback was allowed, tested where not.
    const id = await addWebhook(server, suite.receiver);
    const count = suite.receiver.received.length;
    const ping = await pingWebhook(strict, id);
    assert.equal(ping.delivered, false);
    assert.equal(ping.status, null);
    assert.match(String(ping.error), /address refused.*DESKGATE_WEBHOOK_ALLOW_PRIVATE/);
    assert.equal(suite.receiver.received.length, count);
  });

  test('redirects are not followed; a silent receiver times out', async (t) => {
    const id = await addWebhook(server, suite.receiver);
    suite.receiver.answer = () => ({
      status: 302,
      headers: { location: 'http://169.254.169.254/' },
    });
    const count = suite.receiver.received.length;
    const redirected = await pingWebhook(server, id);
    assert.equal(redirected.delivered, false);
    assert.equal(redirected.status, 302);
    assert.match(String(redirected.error), /redirect not followed/);
    assert.equal(suite.receiver.received.length, count + 1);

    const quick = await suite.startServer(t, { DESKGATE_WEBHOOK_TIMEOUT: '300ms' });
    suite.receiver.answer = () => 'hang';
    const silent = await pingWebhook(quick, id);
    assert.equal(silent.delivered, false);
    assert.match(String(silent.error), /no answer within 300 ms/);
    suite.receiver.answer = () => ({ status: 200 });
  });
});
