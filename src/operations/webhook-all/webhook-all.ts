import * as z from 'zod';
import { webhooks } from '../../data/webhooks/webhooks.ts';
import { defineOperation } from '../operation.ts';
import { readWholeList } from '../read-whole-list.ts';
import { wholeListResponse } from '../response-shapes.ts';
import { toWebhookView, WEBHOOK_EXAMPLE, webhookViewSchema } from '../views/webhook-view.ts';

export const webhookAllParameters = z.strictObject({});

export const webhookAllResponse = wholeListResponse(
  'webhooks',
  webhookViewSchema,
  'webhooks',
  'Every webhook, in id order.',
);

export const webhookAll = defineOperation({
  query: 'webhook',
  condition: 'all',
  methods: ['GET'],
  scope: 'webhooks:manage',
  summary: 'List every webhook, enabled or not; never a secret',
  description:
    'Needs `webhooks:manage`. Every webhook in id order, enabled or not (`disabled_reason` says ' +
    'when deskgate disabled one); never a signing secret.',
  parameters: { '*': webhookAllParameters },
  parametersOptional: true,
  response: webhookAllResponse,
  responseExample: { total: 1, webhooks: [WEBHOOK_EXAMPLE] },
  examples: [{ name: 'webhook-all', summary: 'Every webhook' }],
  uses: [webhooks],
  nothingFound: false,
  errors: ['too_many_results'],
  async handle(_selection, { data, config }) {
    const list = await readWholeList(config, 'webhooks', (limit) =>
      data(webhooks).listWebhooks(limit),
    );
    return { total: list.length, webhooks: list.map(toWebhookView) };
  },
});
