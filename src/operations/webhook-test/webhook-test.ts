import * as z from 'zod';
import { webhooks } from '../../data/webhooks/webhooks.ts';
import { pingWebhook } from '../../webhooks/ping-webhook.ts';
import { defineOperation } from '../operation.ts';
import {
  asConfigurationError,
  attemptViewSchema,
  requireEncryptionKey,
  toAttemptView,
  webhookIdField,
} from '../views/webhook-view.ts';

export const webhookTestParameters = z.strictObject({ id: webhookIdField });

export const webhookTestResponse = attemptViewSchema.meta({ description: 'How the ping went.' });

export const webhookTest = defineOperation({
  query: 'webhook',
  condition: 'test',
  methods: ['POST'],
  scope: 'webhooks:manage',
  summary: "Post a signed ping to a webhook now; answers the receiver's status and the latency",
  description:
    'Needs `webhooks:manage`. Posts a `webhook.ping` event to the webhook now, signed like ' +
    'every delivery, once (no retries; enabled or not), and answers how it went: ' +
    '`delivered` (a 2xx), the HTTP `status`, `latency_ms`, and `error` (refused address, ' +
    'timeout, network error). The ping is in the delivery log. None → 204.',
  parameters: { '*': webhookTestParameters },
  response: webhookTestResponse,
  responseExample: { delivered: true, status: 200, latency_ms: 84, error: null, delivery_id: '42' },
  examples: [{ name: 'webhook-test', summary: 'Ping webhook 1', parameters: { id: 1 } }],
  uses: [webhooks],
  nothingFound: true,
  errors: ['webhooks_not_configured'],
  async handle({ parameters }, { data, config }) {
    const webhook = await data(webhooks).findWebhook(parameters.id);
    if (!webhook) return undefined;
    requireEncryptionKey(config.webhooks.encryptionKeys);
    try {
      const { deliveryId, delivered, result } = await pingWebhook(data(webhooks), config, webhook);
      return toAttemptView(result, delivered, deliveryId);
    } catch (error) {
      throw asConfigurationError(error);
    }
  },
});
