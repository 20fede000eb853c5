import assert from 'node:assert/strict';
import { test } from 'node:test';
import { describeEachDatabaseKind } from '../../../test/helpers/each-database.ts';
import {
  addWebhook,
  type Data,
  dataOf,
  useWebhookSuite,
} from '../../../test/helpers/webhook-requests.ts';
import { DEFAULT_SCOPES } from '../../domain.ts';

describeEachDatabaseKind('webhook/all', (database) => {
  const suite = useWebhookSuite(database);
  const { server } = suite;

  test('lists the webhook, never its secret', async () => {
    const id = await addWebhook(server, suite.receiver, ['ticket.*', 'user.created'], {
      description: 'CRM',
    });
    const all = await server.request({ query: 'webhook', condition: 'all' });
    assert.ok(!all.text.includes(String(suite.receiver.secret).slice(6)));
    const listed = (dataOf(all).webhooks as Data[]).find((w) => w.id === id);
    assert.deepEqual(
      { ...listed, created: '', updated: '' },
      {
        id,
        url: suite.receiver.url,
        events: ['ticket.*', 'user.created'],
        description: 'CRM',
        enabled: true,
        disabled_reason: null,
        failing_since: null,
        created: '',
        updated: '',
      },
    );
  });

  test('webhooks:manage is never a default scope', async () => {
    assert.ok(!DEFAULT_SCOPES.includes('webhooks:manage'));
    const key = await suite.keyWith(DEFAULT_SCOPES);
    const reply = await server.request({ query: 'webhook', condition: 'all' }, { key });
    assert.equal(reply.status, 403, reply.text);
    assert.equal(reply.body?.code, 'insufficient_scope');
  });
});
