import assert from 'node:assert/strict';
import { test } from 'node:test';
import { describeEachDatabaseKind } from '../../../test/helpers/each-database.ts';
import {
  addWebhook,
  type Data,
  dataOf,
  queueDelivery,
  settled,
  useWebhookSuite,
} from '../../../test/helpers/webhook-requests.ts';

describeEachDatabaseKind('webhook/deliveries', (database) => {
  const suite = useWebhookSuite(database);
  const { server } = suite;

  test('a 400 is not retried', async () => {
    const id = await addWebhook(server, suite.receiver);
    suite.receiver.answer = (_d, seen) =>
      seen === 1 ? { status: 200 } : { status: 400, body: 'no thanks' };
    const { eventId, deliveryId } = await queueDelivery(server, id);
    const delivery = await settled(server, id, deliveryId);
    assert.equal(delivery.status, 'failed');
    assert.equal(delivery.attempts, 1);
    assert.equal(delivery.response_status, 400);
    assert.equal(delivery.response_excerpt, 'no thanks');
    assert.equal(suite.receiver.received.filter((r) => r.id === eventId).length, 2);
  });

  test('retries stop when the schedule runs out', async () => {
    const id = await addWebhook(server, suite.receiver);
    suite.receiver.answer = (_d, seen) => (seen === 1 ? { status: 200 } : { status: 500 });
    const { eventId, deliveryId } = await queueDelivery(server, id);
    const delivery = await settled(server, id, deliveryId);
    assert.equal(delivery.status, 'failed');
    assert.equal(delivery.attempts, 4);
    assert.equal(suite.receiver.received.filter((r) => r.id === eventId).length, 5);
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
});
