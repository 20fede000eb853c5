import assert from 'node:assert/strict';
import { test } from 'node:test';
import { describeEachDatabaseKind } from '../../../test/helpers/each-database.ts';
import {
  addWebhook,
  type Data,
  dataOf,
  useWebhookSuite,
} from '../../../test/helpers/webhook-requests.ts';

describeEachDatabaseKind('webhook/specific', (database) => {
  const suite = useWebhookSuite(database);
  const { server } = suite;

  test('answers the webhook, never its secret; none is a 204', async () => {
    const id = await addWebhook(server, suite.receiver);
    const specific = dataOf(
      await server.request({ query: 'webhook', condition: 'specific', parameters: { id } }),
    );
    assert.equal((specific.webhook as Data).id, id);
    assert.equal(specific.secret, undefined);
    const gone = await server.request({
      query: 'webhook',
      condition: 'specific',
      parameters: { id: 999_999 },
    });
    assert.equal(gone.status, 204);
  });
});
