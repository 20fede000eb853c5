import { randomUUID } from 'node:crypto';
import type { Config } from '../config.ts';
import type { Webhook } from '../data/webhooks/webhook.ts';
import type { WebhookData } from '../data/webhooks/webhooks.ts';
import { attemptDelivery, recordOf } from './attempt-delivery.ts';
import { PING_EVENT_TYPE } from './event-types.ts';
import type { AttemptResult } from './send-webhook.ts';

/** What webhook/test answers. */
export interface PingOutcome {
  deliveryId: number;
  delivered: boolean;
  result: AttemptResult;
}

/**
 * webhook/test: posts a `webhook.ping` event to the webhook now (enabled or not), signed as every
 * delivery, once and without retries, and logs it in the delivery log.
 */
export async function pingWebhook(
  data: WebhookData,
  config: Pick<Config, 'webhooks'>,
  webhook: Webhook,
): Promise<PingOutcome> {
  const secretSealed = await data.findSealedSecret(webhook.id);
  if (secretSealed === undefined) throw new Error(`webhook ${webhook.id} has no secret`);
  const event = {
    id: `ping_${randomUUID()}`,
    type: PING_EVENT_TYPE,
    occurred_at: new Date().toISOString(),
    data: { webhook_id: String(webhook.id) },
  };
  const payload = JSON.stringify(event);
  const result = await attemptDelivery(config, {
    url: webhook.url,
    secretSealed,
    eventId: event.id,
    payload,
  });
  const delivered = result.status !== undefined && result.status >= 200 && result.status < 300;
  const record = recordOf(
    result,
    delivered ? { status: 'delivered' } : { status: 'failed', reason: 'refused' },
  );
  const deliveryId = await data.logAttempt(
    { webhookId: webhook.id, eventId: event.id, eventType: PING_EVENT_TYPE, payload },
    record,
    Date.now(),
  );
  return { deliveryId, delivered, result };
}
