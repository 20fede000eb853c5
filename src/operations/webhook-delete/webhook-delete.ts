import * as z from 'zod';
import { webhooks } from '../../data/webhooks/webhooks.ts';
import { writes } from '../../data/writes/writes.ts';
import { DELETE_METHODS, defineOperation } from '../operation.ts';
import { recordOperationWrite } from '../record-operation-write.ts';
import { idResponse } from '../response-shapes.ts';
import { webhookIdField } from '../views/webhook-view.ts';

export const webhookDeleteParameters = z.strictObject({ id: webhookIdField });

export const webhookDeleteResponse = idResponse('The deleted webhook id.', '3');

export const webhookDelete = defineOperation({
  query: 'webhook',
  condition: 'delete',
  methods: DELETE_METHODS,
  scope: 'webhooks:manage',
  summary: 'Delete a webhook and its delivery log',
  description:
    'Needs `webhooks:manage`. Deletes the webhook with its delivery log: nothing more is sent ' +
    "to it (an attempt already under way finishes). Answers the deleted webhook's id; none → " +
    '204. Acts as no agent; the audit log names the key.',
  parameters: { '*': webhookDeleteParameters },
  response: webhookDeleteResponse,
  responseExample: '3',
  examples: [{ name: 'webhook-delete', summary: 'Delete webhook 2', parameters: { id: 2 } }],
  uses: [webhooks, writes],
  nothingFound: true,
  async handle({ parameters }, context) {
    const { id } = parameters;
    if (!(await context.data(webhooks).findWebhook(id))) return undefined;
    const deleted = await recordOperationWrite(context, {
      run: (trx) => context.data(webhooks).deleteWebhook(trx, id),
      targetId: () => String(id),
      outcome: () => `deleted webhook ${id}`,
      answer: (found) => found,
    });
    return deleted ? String(id) : undefined;
  },
});
