import * as z from 'zod';
import { webhooks } from '../../data/webhooks/webhooks.ts';
import { writes } from '../../data/writes/writes.ts';
import { sealSecret } from '../../webhooks/secret-box.ts';
import { newSigningSecret } from '../../webhooks/signature.ts';
import { defineOperation, WRITE_METHODS } from '../operation.ts';
import { recordOperationWrite } from '../record-operation-write.ts';
import {
  assertMayReceive,
  descriptionField,
  eventsField,
  requireEncryptionKey,
  toWebhookView,
  urlField,
  WEBHOOK_EXAMPLE,
  webhookIdField,
  webhookViewSchema,
} from '../views/webhook-view.ts';
import { assertTargetAllowed } from '../webhook-add/webhook-add.ts';

export const webhookUpdateParameters = z.strictObject({
  id: webhookIdField,
  url: urlField.optional(),
  events: eventsField.optional(),
  description: descriptionField.optional(),
  enabled: z.boolean().optional().meta({
    description:
      'false pauses deliveries; true resumes them (and forgets the failures that disabled it).',
  }),
  rotate_secret: z.literal(true).optional().meta({
    description: 'true: a new signing secret, answered once; the old one stops at once.',
  }),
});

export const webhookUpdateResponse = z
  .strictObject({
    webhook: webhookViewSchema,
    secret: z
      .string()
      .optional()
      .meta({ description: 'With `rotate_secret`: the new signing secret, shown this once.' }),
  })
  .meta({ description: 'The webhook as it is now.' });

export const webhookUpdate = defineOperation({
  query: 'webhook',
  condition: 'update',
  methods: WRITE_METHODS,
  scope: 'webhooks:manage',
  summary:
    "Change a webhook's URL, events or description, enable or disable it, or rotate its secret",
  description:
    'Needs `webhooks:manage`. Changes the fields given (`url`, `events`, `description`, ' +
    '`enabled`); the others stay. `enabled: true` resumes a webhook deskgate disabled, with ' +
    'the deliveries still pending. `rotate_secret: true` makes a new signing secret, answered ' +
    'this once as `secret`. Answers the webhook; none → 204. Acts as no agent; the audit log ' +
    'names the key. Setting `events` or `enabled: true` needs a key that may read those events, ' +
    'and makes it the key the webhook answers to (its deliveries stop if it loses the scopes).',
  parameters: { '*': webhookUpdateParameters },
  response: webhookUpdateResponse,
  responseExample: { webhook: { ...WEBHOOK_EXAMPLE, events: ['ticket.*', 'user.created'] } },
  examples: [
    {
      name: 'webhook-update',
      summary: 'Also send user.created to webhook 1',
      parameters: { id: 1, events: ['ticket.*', 'user.created'] },
    },
    { name: 'webhook-enable', summary: 'Resume webhook 1', parameters: { id: 1, enabled: true } },
  ],
  uses: [webhooks, writes],
  nothingFound: true,
  errors: ['webhooks_not_configured'],
  async handle({ parameters }, context) {
    const { config } = context;
    const data = context.data(webhooks);
    const current = await data.findWebhook(parameters.id);
    if (!current) return undefined;
    if (parameters.url !== undefined) await assertTargetAllowed(parameters.url, config);
    // Whoever sets what it receives, or turns it back on, becomes the key it answers to.
    const subscribed =
      parameters.events ?? (parameters.enabled === true ? current.events : undefined);
    if (subscribed !== undefined) assertMayReceive(context.apiKey, subscribed);
    let secret: string | undefined;
    if (parameters.rotate_secret) {
      requireEncryptionKey(config.webhooks.encryptionKeys);
      secret = newSigningSecret();
    }
    const secretSealed =
      secret === undefined ? undefined : sealSecret(secret, config.webhooks.encryptionKeys);
    const updated = await recordOperationWrite(context, {
      run: (trx, at) =>
        data.updateWebhook(
          trx,
          parameters.id,
          {
            url: parameters.url,
            events: parameters.events,
            description: parameters.description,
            enabled: parameters.enabled,
            secretSealed,
            keyId: subscribed === undefined ? undefined : context.apiKey.id,
          },
          at,
        ),
      targetId: () => String(parameters.id),
      outcome: () => `updated webhook ${parameters.id}`,
      answer: (found) => found,
    });
    const webhook = updated ? await data.findWebhook(parameters.id) : undefined;
    if (!webhook) return undefined;
    return { webhook: toWebhookView(webhook), ...(secret === undefined ? {} : { secret }) };
  },
});
