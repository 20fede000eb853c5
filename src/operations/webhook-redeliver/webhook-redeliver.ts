import * as z from 'zod';
import { webhooks } from '../../data/webhooks/webhooks.ts';
import { writes } from '../../data/writes/writes.ts';
import { INT32_MAX, integerField } from '../fields.ts';
import { defineOperation } from '../operation.ts';
import { recordOperationWrite } from '../record-operation-write.ts';
import { idResponse } from '../response-shapes.ts';

export const webhookRedeliverParameters = z.strictObject({
  delivery_id: integerField(1, INT32_MAX).meta({ description: 'The delivery to send again.' }),
});

export const webhookRedeliverResponse = idResponse('The new delivery id.', '43');

export const webhookRedeliver = defineOperation({
  query: 'webhook',
  condition: 'redeliver',
  methods: ['POST'],
  scope: 'webhooks:manage',
  summary: 'Send a logged delivery again (same body, same webhook-id)',
  description:
    'Needs `webhooks:manage`. Queues the event of delivery `delivery_id` (from ' +
    'webhook/deliveries) to its webhook again, as a new delivery with the same body and the ' +
    'same `webhook-id` (receivers that de-duplicate by it see a repeat), retried as any other. ' +
    'Answers the new delivery id; a delivery no longer in the log → 204. Acts as no agent; ' +
    'the audit log names the key.',
  parameters: { '*': webhookRedeliverParameters },
  response: webhookRedeliverResponse,
  responseExample: '43',
  examples: [
    {
      name: 'webhook-redeliver',
      summary: 'Send delivery 1 again',
      parameters: { delivery_id: 1 },
    },
  ],
  uses: [webhooks, writes],
  nothingFound: true,
  async handle({ parameters }, context) {
    const data = context.data(webhooks);
    if (!(await data.findDelivery(parameters.delivery_id))) return undefined;
    const id = await recordOperationWrite(context, {
      run: (trx) => data.redeliver(trx, parameters.delivery_id, Date.now()),
      targetId: (added) => String(added ?? 0),
      outcome: (added) =>
        `redelivering delivery ${parameters.delivery_id} as ${added ?? 'nothing'}`,
      answer: (added) => added,
    });
    return id === undefined ? undefined : String(id);
  },
});
