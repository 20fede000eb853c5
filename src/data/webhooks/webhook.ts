import type { DeliveryStatus } from '../../webhooks/retry-policy.ts';

/** An endpoint events are posted to (SPEC §8e). Its signing secret is never part of it. */
export interface Webhook {
  id: number;
  url: string;
  /** Event types or patterns (`ticket.*`, `*`) it receives. */
  events: string[];
  description: string;
  enabled: boolean;
  /** Why deskgate disabled it (failing for days), or null. */
  disabledReason: string | null;
  /** Since when its deliveries have failed without a success in between (UTC), or null. */
  failingSince: string | null;
  /** The key that subscribed it, whose scopes its deliveries need; null or 0: the operator's. */
  keyId: number | null;
  /**
   * The feed position when it was made: it gets the events after it (decision 394). Null on
   * webhooks made before deskgate recorded it: events from its creation's second on.
   */
  afterEvent: number | null;
  created: string;
  updated: string;
}

export interface NewWebhook {
  url: string;
  events: string[];
  description: string;
  /** The signing secret as secret-box.ts seals it. */
  secretSealed: string;
  /** The key subscribing it (0: the command line). */
  keyId: number;
}

/** webhook/update: what changes; absent fields stay. `enabled: true` also clears the failure record. */
export interface WebhookChanges {
  url?: string | undefined;
  events?: string[] | undefined;
  description?: string | undefined;
  enabled?: boolean | undefined;
  secretSealed?: string | undefined;
  /** The key that now subscribes it (set with `events` or `enabled: true`). */
  keyId?: number | undefined;
}

/** One delivery of one event to one webhook, as the delivery log shows it. */
export interface Delivery {
  id: number;
  webhookId: number;
  /** The event's id: the `webhook-id` header, the same on every attempt and redelivery. */
  eventId: string;
  eventType: string;
  status: DeliveryStatus;
  attempts: number;
  /** When the next attempt is due (pending), else null. */
  nextAttempt: string | null;
  lastAttempt: string | null;
  responseStatus: number | null;
  error: string | null;
  latencyMs: number | null;
  responseExcerpt: string | null;
  created: string;
  delivered: string | null;
}

/** A delivery to queue: the event as it will be posted. */
export interface NewDelivery {
  webhookId: number;
  eventId: string;
  eventType: string;
  /** The JSON body, exactly as it will be signed and posted. */
  payload: string;
}

/** A delivery one instance holds until `leaseEndsMs`, with what it takes to send it. */
export interface ClaimedDelivery {
  id: number;
  webhookId: number;
  eventId: string;
  eventType: string;
  payload: string;
  /** Attempts made, this one included. */
  attempts: number;
  url: string;
  secretSealed: string;
  /** The webhook's key (Webhook.keyId). */
  keyId: number | null;
  claimToken: string;
}

/** How an attempt ended, as the log records it and the queue schedules what follows. */
export interface AttemptRecord {
  status: DeliveryStatus;
  /** Due time of the next attempt (pending). */
  nextAttemptMs: number | undefined;
  responseStatus: number | undefined;
  error: string | undefined;
  latencyMs: number;
  responseExcerpt: string;
  at: string;
}

/** webhook/deliveries: a webhook's deliveries, newest first, after `after` (a delivery id). */
export interface DeliveryListQuery {
  webhookId: number;
  status: DeliveryStatus | undefined;
  after: number | undefined;
  limit: number;
}

/** The queue at a glance, for metrics. */
export interface QueueStats {
  /** Pending deliveries of enabled webhooks. */
  pending: number;
  /** When the oldest of them was queued (epoch ms), or undefined when none is. */
  oldestPendingMs: number | undefined;
  disabledWebhooks: number;
}
