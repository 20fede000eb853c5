import { EVENT_TYPES, type FeedEvent } from '../data/events/event.ts';
import type { EventData } from '../data/events/events.ts';
import { timestampToMs } from '../data/time.ts';
import type { NewDelivery, Webhook } from '../data/webhooks/webhook.ts';
import type { WebhookData } from '../data/webhooks/webhooks.ts';
import { subscribes } from './event-types.ts';

/** Events turned into deliveries per transaction. */
const PAGE = 100;

export interface DispatchOptions {
  events: EventData;
  webhooks: WebhookData;
  /** DESKGATE_EVENTS_SETTLE_MS: the feed holds back events past a gap younger than this. */
  settleMs: number;
}

/** Whether `event` came after `webhook` was made (decision 394). */
function isAfterCreation(event: FeedEvent, webhook: Webhook): boolean {
  if (webhook.afterEvent !== null) return event.seq > webhook.afterEvent;
  return timestampToMs(event.occurred_at) >= timestampToMs(webhook.created);
}

/** Where the first turn reads from: the earliest feed position a webhook was made at. */
async function firstPosition(all: readonly Webhook[], events: EventData): Promise<number> {
  const positions = all.flatMap((webhook) => webhook.afterEvent ?? []);
  // Webhooks made before the position was recorded: from where the oldest of them was made.
  const [oldest] = all
    .filter((webhook) => webhook.afterEvent === null)
    .map((webhook) => webhook.created)
    .sort();
  if (oldest !== undefined) positions.push(await events.positionAt(oldest));
  return Math.min(...positions);
}

/**
 * The dispatcher: reads the feed after its stored position (through the feed's own settle rule,
 * so an event committed late is never skipped) and, in one transaction with the new position,
 * queues one delivery per event and enabled webhook subscribed to its type. Instances sharing
 * the database race on the position (compare and set): each event is queued once. The first run
 * starts at the earliest feed position a webhook was made at, not at its own present: an event
 * between a webhook's creation and that first turn is still the webhook's, and an installation's
 * history before any webhook is never posted. Resolves to the deliveries queued; `more` when the feed had more to read.
 */
export async function dispatchEvents({
  events,
  webhooks,
  settleMs,
}: DispatchOptions): Promise<{ queued: number; more: boolean }> {
  const all = await webhooks.listWebhooks(10_000);
  // No webhook at all: nothing to queue, and no write (none takes SQLite's lock every turn). The
  // position may then lag; a webhook made later gets no event older than itself (below).
  if (all.length === 0) return { queued: 0, more: false };
  const stored =
    (await webhooks.dispatchPosition()) ??
    (await webhooks.startDispatchAt(String(await firstPosition(all, events))));
  const page = await events.page({
    after: Number(stored),
    limit: PAGE,
    types: EVENT_TYPES,
    settleMs,
  });
  const next = String(page.next);
  if (next === stored) return { queued: 0, more: false };
  const targets = all.filter((webhook) => webhook.enabled);
  const deliveries: NewDelivery[] = [];
  for (const event of page.events) {
    const payload = JSON.stringify(event);
    for (const webhook of targets) {
      if (!subscribes(webhook.events, event.type)) continue;
      if (!isAfterCreation(event, webhook)) continue;
      deliveries.push({ webhookId: webhook.id, eventId: event.id, eventType: event.type, payload });
    }
  }
  const advanced = await webhooks.advanceDispatch(stored, next, deliveries, Date.now());
  return { queued: advanced ? deliveries.length : 0, more: !page.endOfStream };
}
