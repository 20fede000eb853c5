import * as z from 'zod';
import type { Delivery, Webhook } from '../../data/webhooks/webhook.ts';
import type { ApiKey } from '../../domain.ts';
import { DeskgateError } from '../../errors.ts';
import { MESSAGES } from '../../messages.ts';
import {
  EVENT_PATTERN,
  EVENT_TYPES,
  matchesEventType,
  PING_EVENT_TYPE,
} from '../../webhooks/event-types.ts';
import { WebhookEncryptionError } from '../../webhooks/secret-box.ts';
import type { AttemptResult } from '../../webhooks/send-webhook.ts';
import { clientRecord } from '../client-records.ts';
import { typesVisibleTo } from '../events-since/event-types.ts';
import { INT32_MAX, integerField } from '../fields.ts';
import { textField } from '../plain-text.ts';

/* What the webhook operations share: their fields, their views and their one configuration error. */

export const webhookIdField = integerField(1, INT32_MAX).meta({ description: 'The webhook.' });

export const urlField = z
  .string()
  .trim()
  .min(1, { error: 'must not be empty' })
  .max(2048, { error: 'must be at most 2048 characters' })
  .meta({
    description:
      'Where events are posted: an https URL; http only to addresses DESKGATE_WEBHOOK_ALLOW_PRIVATE lists. Loopback, private, link-local and metadata addresses are refused unless listed there.',
  });

export const eventsField = z
  .array(
    z
      .string()
      .max(64, { error: 'must be at most 64 characters' })
      .regex(EVENT_PATTERN, { error: 'must be an event type, a prefix and .* (ticket.*), or *' })
      .refine(
        (pattern) =>
          pattern === '*' ||
          EVENT_TYPES.some((type) =>
            pattern.endsWith('.*') ? type.startsWith(pattern.slice(0, -1)) : type === pattern,
          ),
        { error: `must name or match one of ${EVENT_TYPES.join(', ')}` },
      ),
  )
  .min(1, { error: 'must name at least one event type' })
  .max(32, { error: 'must have at most 32 entries' })
  .transform((patterns) => [...new Set(patterns)])
  .meta({
    description:
      'The event types it receives: names (`ticket.reply.created`), prefixes (`ticket.*`) or `*`.',
  });

export const descriptionField = z
  .union([z.literal(''), textField(255, 'What the webhook is for.')])
  .meta({ description: 'What the webhook is for, at most 255 characters.' });

export const webhookViewSchema = z
  .strictObject({
    id: z.string().meta({ description: 'The webhook id.' }),
    url: z.string(),
    events: z.array(z.string()),
    description: z.string(),
    enabled: z
      .boolean()
      .meta({ description: 'False when disabled by webhook/update or by deskgate.' }),
    disabled_reason: z
      .string()
      .nullable()
      .meta({ description: 'Why deskgate disabled it (its deliveries failed for days), or null.' }),
    failing_since: z.string().nullable().meta({
      description:
        'Since when (UTC) its deliveries have failed with no success in between, or null.',
    }),
    created: z.string(),
    updated: z.string(),
  })
  .meta({ description: 'A webhook; its signing secret is never shown again.' });
clientRecord(webhookViewSchema, 'WebhookRecord');

export type WebhookView = z.output<typeof webhookViewSchema>;

export function toWebhookView(webhook: Webhook): WebhookView {
  return {
    id: String(webhook.id),
    url: webhook.url,
    events: webhook.events,
    description: webhook.description,
    enabled: webhook.enabled,
    disabled_reason: webhook.disabledReason,
    failing_since: webhook.failingSince,
    created: webhook.created,
    updated: webhook.updated,
  };
}

export const WEBHOOK_EXAMPLE: WebhookView = {
  id: '3',
  url: 'https://hooks.example.com/deskgate',
  events: ['ticket.*'],
  description: 'Ticket changes to the CRM',
  enabled: true,
  disabled_reason: null,
  failing_since: null,
  created: '2026-11-27 21:00:00',
  updated: '2026-11-27 21:00:00',
};

export const deliveryViewSchema = z
  .strictObject({
    id: z.string().meta({ description: 'The delivery id (webhook/redeliver takes it).' }),
    webhook_id: z.string(),
    event_id: z
      .string()
      .meta({ description: 'The event id: the `webhook-id` header, the same on every attempt.' }),
    event_type: z
      .string()
      .meta({ description: `The event type (\`${PING_EVENT_TYPE}\` for webhook/test).` }),
    status: z.enum(['pending', 'delivered', 'failed']).meta({
      description:
        '`pending`: waiting for its next attempt; `delivered`: a 2xx came; `failed`: given up.',
    }),
    attempts: z.int().min(0),
    next_attempt: z
      .string()
      .nullable()
      .meta({ description: 'When the next attempt is due (UTC), while pending.' }),
    last_attempt: z.string().nullable(),
    response_status: z
      .int()
      .nullable()
      .meta({ description: "The receiver's last HTTP status, or null." }),
    error: z.string().nullable().meta({ description: 'Why the last attempt failed, or null.' }),
    latency_ms: z.int().nullable(),
    response_excerpt: z
      .string()
      .nullable()
      .meta({ description: "The start of the receiver's last answer (at most 1024 characters)." }),
    created: z.string(),
    delivered: z.string().nullable(),
  })
  .meta({ description: 'One event delivered (or being delivered) to one webhook.' });
clientRecord(deliveryViewSchema, 'WebhookDeliveryRecord');

export type DeliveryView = z.output<typeof deliveryViewSchema>;

export function toDeliveryView(delivery: Delivery): DeliveryView {
  return {
    id: String(delivery.id),
    webhook_id: String(delivery.webhookId),
    event_id: delivery.eventId,
    event_type: delivery.eventType,
    status: delivery.status,
    attempts: delivery.attempts,
    next_attempt: delivery.nextAttempt,
    last_attempt: delivery.lastAttempt,
    response_status: delivery.responseStatus,
    error: delivery.error,
    latency_ms: delivery.latencyMs,
    response_excerpt: delivery.responseExcerpt,
    created: delivery.created,
    delivered: delivery.delivered,
  };
}

export const DELIVERY_EXAMPLE: DeliveryView = {
  id: '41',
  webhook_id: '3',
  event_id: 'evt_0000000000000412',
  event_type: 'ticket.reply.created',
  status: 'delivered',
  attempts: 2,
  next_attempt: null,
  last_attempt: '2026-11-27 21:05:06',
  response_status: 200,
  error: null,
  latency_ms: 84,
  response_excerpt: 'ok',
  created: '2026-11-27 21:05:00',
  delivered: '2026-11-27 21:05:06',
};

/** What webhook/test answers for one attempt. */
export const attemptViewSchema = z.strictObject({
  delivered: z.boolean().meta({ description: 'True when the receiver answered 2xx.' }),
  status: z
    .int()
    .nullable()
    .meta({ description: "The receiver's HTTP status, or null when none came." }),
  latency_ms: z.int().min(0),
  error: z
    .string()
    .nullable()
    .meta({ description: 'Why it failed (refused address, timeout, …), or null.' }),
  delivery_id: z.string().meta({ description: 'The ping in the delivery log.' }),
});

export function toAttemptView(result: AttemptResult, delivered: boolean, deliveryId: number) {
  return {
    delivered,
    status: result.status ?? null,
    latency_ms: result.latencyMs,
    error: result.error ?? null,
    delivery_id: String(deliveryId),
  };
}

/** The sealing key is missing, or does not open a stored secret: 501, nothing written. */
export function requireEncryptionKey(keys: readonly unknown[]): void {
  if (keys.length === 0)
    throw new DeskgateError('webhooks_not_configured', MESSAGES.webhooksNotConfigured);
}

/** A secret no configured key opens is the administrator's to fix: said as such, not a 500. */
export function asConfigurationError(error: unknown): unknown {
  if (!(error instanceof WebhookEncryptionError)) return error;
  return new DeskgateError('webhooks_not_configured', `${error.message}. Nothing was sent.`, {
    cause: error,
  });
}

/**
 * A key subscribes a webhook only to events it could read in the feed (SPEC §4a: a webhook must
 * not widen the key): ticket events need `tickets:read` (notes and tasks the notes grant too),
 * user events `users:read`. Otherwise 403 `insufficient_scope` naming the types; nothing written.
 */
export function assertMayReceive(
  apiKey: Pick<ApiKey, 'scopes' | 'notes'>,
  patterns: readonly string[],
): void {
  const visible = new Set<string>(typesVisibleTo(apiKey));
  const hidden = EVENT_TYPES.filter(
    (type) => !visible.has(type) && patterns.some((pattern) => matchesEventType(pattern, type)),
  );
  if (hidden.length === 0) return;
  throw new DeskgateError(
    'insufficient_scope',
    `This key may not read ${hidden.join(', ')} in the feed (ticket events need tickets:read, notes and tasks the notes grant too, user events users:read), so a webhook of its may not receive them: list the event types it may read instead.`,
  );
}
