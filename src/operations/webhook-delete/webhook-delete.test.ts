import assert from 'node:assert/strict';
import { test } from 'node:test';
import { describeEachDatabaseKind } from '../../../test/helpers/each-database.ts';
import { addWebhook, dataOf, useWebhookSuite } from '../../../test/helpers/webhook-requests.ts';

describeEachDatabaseKind('webhook/delete', (database) => {
  const suite = useWebhookSuite(database);
  const { server } = suite;

  test('deletes the webhook: answers its id, then it is gone', async () => {
    const id = await addWebhook(server, suite.receiver);
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
});
