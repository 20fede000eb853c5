import * as z from 'zod';
import { webhooks } from '../../data/webhooks/webhooks.ts';
import { defineOperation } from '../operation.ts';
import {
  toWebhookView,
  WEBHOOK_EXAMPLE,
  webhookIdField,
  webhookViewSchema,
} from '../views/webhook-view.ts';

export const webhookSpecificParameters = z.strictObject({ id: webhookIdField });

export const webhookSpecificResponse = z
  .strictObject({ webhook: webhookViewSchema })
  .meta({ description: 'The webhook.' });

export const webhookSpecific = defineOperation({
  query: 'webhook',
  condition: 'specific',
  methods: ['GET'],
  scope: 'webhooks:manage',
  summary: 'One webhook, by id',
  description:
    'Needs `webhooks:manage`. The webhook `id`, without its signing secret; none → 204 (404 ' +
    'with DESKGATE_NOT_FOUND_STATUS=404).',
  parameters: { '*': webhookSpecificParameters },
  response: webhookSpecificResponse,
  responseExample: { webhook: WEBHOOK_EXAMPLE },
  examples: [{ name: 'webhook-specific', summary: 'Webhook 1', parameters: { id: 1 } }],
  uses: [webhooks],
  nothingFound: true,
  async handle({ parameters }, { data }) {
    const webhook = await data(webhooks).findWebhook(parameters.id);
    return webhook && { webhook: toWebhookView(webhook) };
  },
});
