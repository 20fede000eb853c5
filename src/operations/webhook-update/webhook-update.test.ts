import assert from 'node:assert/strict';
import { test } from 'node:test';
import { describeEachDatabaseKind } from '../../../test/helpers/each-database.ts';
import {
  addWebhook,
  type Data,
  dataOf,
  useWebhookSuite,
} from '../../../test/helpers/webhook-requests.ts';

describeEachDatabaseKind('webhook/update', (database) => {
  const suite = useWebhookSuite(database);
  const { server } = suite;

  test('changes what is given and never shows the secret, but a rotated one once', async () => {
    const id = await addWebhook(server, suite.receiver);
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
    assert.notEqual(rotated.secret, suite.receiver.secret);
  });
});
