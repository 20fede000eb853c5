import assert from 'node:assert/strict';
import { test } from 'node:test';
import { describeEachDatabaseKind } from '../../../test/helpers/each-database.ts';
import {
  addWebhook,
  queueDelivery,
  settled,
  useWebhookSuite,
} from '../../../test/helpers/webhook-requests.ts';

describeEachDatabaseKind('webhook/redeliver', (database) => {
  const suite = useWebhookSuite(database);
  const { server } = suite;

  test('a receiver that fails then recovers gets the delivery, same webhook-id each time', async () => {
    const id = await addWebhook(server, suite.receiver);
    suite.receiver.answer = (_d, seen) =>
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
    const attempts = suite.receiver.received.filter((r) => r.id === eventId);
    assert.equal(attempts.length, 4);
    assert.ok(attempts.every((r) => r.verified && r.clientVerified));
  });
});
