import { type Config, ConfigError } from '../config.ts';
import { apiKeys } from '../data/api-keys/api-keys.ts';
import { events } from '../data/events/events.ts';
import type { Store } from '../data/store.ts';
import { webhooks } from '../data/webhooks/webhooks.ts';
import type { Logger } from '../logger.ts';
import type { WebhookMetrics } from '../metrics/webhook-metrics.ts';
import { type DeliveryWorker, startDeliveryWorker } from './delivery-worker.ts';
import { dispatchEvents } from './dispatch-events.ts';
import { ownerRefusal } from './owner-check.ts';
import { openSecret, WebhookEncryptionError } from './secret-box.ts';
import { ENCRYPTION_KEY_HINT } from './webhook-runtime.ts';

/**
 * Refuses to start when webhooks exist whose secrets the configuration cannot open: without
 * DESKGATE_WEBHOOK_ENCRYPTION_KEY, or with a key that is not the one they were sealed with
 * (every delivery would fail, silently, for days).
 */
export async function assertWebhookSecretsOpen(
  store: Store,
  config: Pick<Config, 'webhooks'>,
): Promise<void> {
  const data = store.data(webhooks);
  const count = await data.countWebhooks();
  if (count === 0) return;
  const keys = config.webhooks.encryptionKeys;
  if (keys.length === 0) {
    throw new ConfigError(
      `DESKGATE_WEBHOOK_ENCRYPTION_KEY is not set, but ${count} webhook${count === 1 ? '' : 's'} exist${count === 1 ? 's' : ''} whose signing secrets it seals: ${ENCRYPTION_KEY_HINT}`,
    );
  }
  for (const webhook of await data.listWebhooks(count)) {
    const sealed = await data.findSealedSecret(webhook.id);
    if (sealed === undefined) continue;
    try {
      openSecret(sealed, keys);
    } catch (error) {
      if (!(error instanceof WebhookEncryptionError)) throw error;
      throw new ConfigError(
        `DESKGATE_WEBHOOK_ENCRYPTION_KEY does not open webhook ${webhook.id}'s signing secret (${error.message}): set the key it was sealed with (a new key goes first, the old ones after it, comma-separated)`,
      );
    }
  }
}

/** The delivery worker of a running server (none with DESKGATE_WEBHOOK_CONCURRENCY=0). */
export function startWebhookDelivery(
  store: Store,
  config: Pick<Config, 'webhooks' | 'eventsSettleMs'>,
  logger: Logger,
  metrics: WebhookMetrics | undefined,
): DeliveryWorker {
  const data = store.data(webhooks);
  const feed = store.data(events);
  const keys = store.data(apiKeys);
  return startDeliveryWorker({
    data,
    config,
    logger: logger.child({ component: 'webhooks' }),
    metrics,
    dispatch: () =>
      dispatchEvents({ events: feed, webhooks: data, settleMs: config.eventsSettleMs }),
    refusal: (claimed) => ownerRefusal(keys, claimed.keyId, claimed.eventType, Date.now()),
  });
}
