import * as z from 'zod';
import { webhooks } from '../../data/webhooks/webhooks.ts';
import { writes } from '../../data/writes/writes.ts';
import { DeskgateError } from '../../errors.ts';
import { invalidParametersMessage } from '../../messages.ts';
import { sealSecret } from '../../webhooks/secret-box.ts';
import { newSigningSecret } from '../../webhooks/signature.ts';
import { guardOf } from '../../webhooks/webhook-runtime.ts';
import { defineOperation } from '../operation.ts';
import { recordOperationWrite } from '../record-operation-write.ts';
import {
  assertMayReceive,
  descriptionField,
  eventsField,
  requireEncryptionKey,
  urlField,
} from '../views/webhook-view.ts';

export const webhookAddParameters = z.strictObject({
  url: urlField,
  events: eventsField,
  description: descriptionField.optional(),
});

/** A URL the address guard refuses → 400 naming `parameters.url`, nothing written. */
export async function assertTargetAllowed(
  url: string,
  config: Parameters<typeof guardOf>[0],
): Promise<void> {
  const refusal = await guardOf(config).refuseResolved(url);
  if (refusal === undefined) return;
  const field = 'parameters.url';
  throw new DeskgateError('invalid_parameters', invalidParametersMessage([`${field} ${refusal}`]), {
    errors: [{ field, message: refusal }],
  });
}

export const webhookAddResponse = z
  .strictObject({
    id: z.string().meta({ description: 'The new webhook id.' }),
    secret: z.string().meta({
      description: 'The signing secret, `whsec_` and base64: keep it now, it is never shown again.',
    }),
  })
  .meta({ description: 'The new webhook and its signing secret.' });

export const webhookAdd = defineOperation({
  query: 'webhook',
  condition: 'add',
  methods: ['POST'],
  scope: 'webhooks:manage',
  summary:
    'Add a webhook: events of the listed types posted to a URL, signed (Standard Webhooks); answers its secret once',
  description:
    'Needs `webhooks:manage`, a scope no key has unless given by name. Events of the listed ' +
    'types are posted to `url` as JSON, signed as Standard Webhooks says (`webhook-id`, ' +
    '`webhook-timestamp`, `webhook-signature`). Answers the id and the signing secret ' +
    '(`whsec_…`): shown this once, stored encrypted (DESKGATE_WEBHOOK_ENCRYPTION_KEY; without ' +
    'it 501 `webhooks_not_configured`). The URL must be https to a public address, or go to an ' +
    'address DESKGATE_WEBHOOK_ALLOW_PRIVATE lists (else 400 naming `parameters.url`). Acts as ' +
    'no agent; the audit log names the key. No Idempotency-Key: a stored answer would hold the secret. ' +
    'A key subscribes only to events it may read in the feed (ticket events `tickets:read`, notes and ' +
    'tasks the notes grant too, user events `users:read`): else 403 `insufficient_scope`, nothing added. ' +
    'Checked again as each event is sent: a type the key can no longer read is not sent (failed in ' +
    'the delivery log, saying why); a revoked or expired key disables the webhook.',
  parameters: { '*': webhookAddParameters },
  response: webhookAddResponse,
  responseExample: { id: '3', secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw6DKRs2Bpu4E=' },
  examples: [
    {
      name: 'webhook-add',
      summary: 'Post every ticket event to a CRM',
      parameters: {
        url: 'https://hooks.example.com/deskgate',
        events: ['ticket.*'],
        description: 'Ticket changes to the CRM',
      },
    },
  ],
  uses: [webhooks, writes],
  nothingFound: false,
  errors: ['webhooks_not_configured'],
  async handle({ parameters }, context) {
    const { config } = context;
    requireEncryptionKey(config.webhooks.encryptionKeys);
    await assertTargetAllowed(parameters.url, config);
    assertMayReceive(context.apiKey, parameters.events);
    const secret = newSigningSecret();
    const secretSealed = sealSecret(secret, config.webhooks.encryptionKeys);
    const id = await recordOperationWrite(context, {
      run: (trx, at) =>
        context.data(webhooks).addWebhook(
          trx,
          {
            url: parameters.url,
            events: parameters.events,
            description: parameters.description ?? '',
            secretSealed,
            keyId: context.apiKey.id,
          },
          at,
        ),
      targetId: String,
      outcome: (added) => `created webhook ${added}`,
      answer: String,
    });
    return { id, secret };
  },
});
