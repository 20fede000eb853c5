import type { Config } from '../config.ts';
import { now } from '../data/time.ts';
import type { AttemptRecord } from '../data/webhooks/webhook.ts';
import type { AttemptOutcome } from './retry-policy.ts';
import { openSecret } from './secret-box.ts';
import { type AttemptResult, sendWebhook } from './send-webhook.ts';
import { signDelivery } from './signature.ts';
import { guardOf } from './webhook-runtime.ts';

/** One delivery to attempt: where, the sealed secret, the event's id and its JSON. */
export interface DeliveryTarget {
  url: string;
  secretSealed: string;
  eventId: string;
  payload: string;
}

/**
 * Signs `payload` for this attempt (Standard Webhooks: `webhook-id` the event's id,
 * `webhook-timestamp` now) and posts it. The secret is opened only here, for the signature.
 */
export function attemptDelivery(
  config: Pick<Config, 'webhooks'>,
  target: DeliveryTarget,
): Promise<AttemptResult> {
  const secret = openSecret(target.secretSealed, config.webhooks.encryptionKeys);
  const headers = signDelivery(
    secret,
    target.eventId,
    Math.floor(Date.now() / 1_000),
    target.payload,
  );
  return sendWebhook({
    url: target.url,
    headers,
    body: target.payload,
    guard: guardOf(config),
    timeoutMs: config.webhooks.timeoutMs,
    maxResponseBytes: config.webhooks.maxResponseBytes,
  });
}

/** The delivery log's record of an attempt and what follows it. */
export function recordOf(result: AttemptResult, outcome: AttemptOutcome): AttemptRecord {
  return {
    status: outcome.status,
    nextAttemptMs: outcome.status === 'pending' ? outcome.nextAttemptMs : undefined,
    responseStatus: result.status,
    error:
      result.error ??
      (outcome.status === 'failed' && outcome.reason === 'exhausted'
        ? 'gave up: every retry failed'
        : undefined),
    latencyMs: result.latencyMs,
    responseExcerpt: result.responseExcerpt,
    at: now(),
  };
}
