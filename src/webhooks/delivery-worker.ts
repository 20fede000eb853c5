import type { Config } from '../config.ts';
import type { ClaimedDelivery } from '../data/webhooks/webhook.ts';
import type { WebhookData } from '../data/webhooks/webhooks.ts';
import type { Logger } from '../logger.ts';
import type { WebhookMetrics } from '../metrics/webhook-metrics.ts';
import { attemptDelivery, recordOf } from './attempt-delivery.ts';
import { disabledReasonOf, type Refusal } from './owner-check.ts';
import { nextAfter } from './retry-policy.ts';

/** How often the delivery log's old rows are forgotten. */
const RETENTION_EVERY_MS = 600_000;

export interface DeliveryWorkerOptions {
  data: WebhookData;
  config: Pick<Config, 'webhooks'>;
  logger: Logger;
  metrics: WebhookMetrics | undefined;
  /**
   * Turns new events into deliveries before each look for due ones (the dispatcher); `more` when
   * the feed has more to read at once. Absent: only deliveries already queued are sent.
   */
  dispatch?: (() => Promise<{ queued: number; more: boolean }>) | undefined;
  /**
   * Why a claimed delivery may not be sent (its webhook's key can no longer read the event), or
   * undefined: asked before each attempt. Absent: every delivery may be sent.
   */
  refusal?: ((claimed: ClaimedDelivery) => Promise<Refusal | undefined>) | undefined;
}

export interface DeliveryWorker {
  /** Looks for due deliveries now rather than at the next poll. */
  wake(): void;
  /** Stops claiming; resolves once the attempts under way have been recorded. */
  stop(): Promise<void>;
}

/**
 * Sends due webhook deliveries, DESKGATE_WEBHOOK_CONCURRENCY at a time. Each is claimed for a
 * lease (see claimDueDeliveries), so instances sharing the database never send one at the same
 * time, and one killed mid-attempt leaves it to fall due again after the lease: at least once.
 */
export function startDeliveryWorker(options: DeliveryWorkerOptions): DeliveryWorker {
  const { data, config, logger, metrics, dispatch, refusal } = options;
  const settings = config.webhooks;
  // Twice the attempt's own bound and a second: room to record it, yet a killed instance's
  // deliveries fall due again soon.
  const leaseMs = 2 * settings.timeoutMs + 1_000;
  const inFlight = new Set<Promise<void>>();
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let again = false;
  let lastRetention = 0;

  /** Records a delivery its key may no longer receive; true when it was one. */
  async function refused(claimed: ClaimedDelivery): Promise<boolean> {
    const refused = await refusal?.(claimed);
    if (!refused) return false;
    const disabledReason = refused.disable ? disabledReasonOf(refused) : undefined;
    await data.refuseDelivery(claimed, refused.error, disabledReason);
    logger.warn(
      { webhookId: claimed.webhookId, deliveryId: claimed.id, eventId: claimed.eventId },
      disabledReason === undefined
        ? `webhook delivery ${refused.error}`
        : `webhook ${disabledReason}`,
    );
    if (disabledReason !== undefined) metrics?.disabled();
    return true;
  }

  async function attempt(claimed: ClaimedDelivery): Promise<void> {
    if (await refused(claimed)) return;
    const result = await attemptDelivery(config, claimed).catch((error: unknown) => ({
      status: undefined,
      latencyMs: 0,
      error: error instanceof Error ? error.message : 'the attempt failed',
      retryAfterMs: undefined,
      responseExcerpt: '',
    }));
    const nowMs = Date.now();
    const outcome = nextAfter(result, claimed.attempts, settings.retryDelaysMs, nowMs);
    const record = recordOf(result, outcome);
    const { recorded, disabled } = await data.recordAttempt(
      claimed,
      record,
      nowMs,
      settings.disableAfterMs,
    );
    const label =
      outcome.status === 'delivered'
        ? 'delivered'
        : outcome.status === 'pending'
          ? 'retrying'
          : 'failed';
    metrics?.attempt(label, result.latencyMs / 1_000);
    const fields = {
      webhookId: claimed.webhookId,
      deliveryId: claimed.id,
      eventId: claimed.eventId,
      attempt: claimed.attempts,
      status: result.status,
      latencyMs: result.latencyMs,
    };
    if (!recorded)
      logger.warn(fields, 'webhook delivery outlived its lease; another instance had it');
    if (outcome.status === 'pending') {
      logger.info(
        {
          ...fields,
          error: record.error,
          nextAttempt: new Date(outcome.nextAttemptMs).toISOString(),
        },
        'webhook delivery failed; will retry',
      );
    } else if (outcome.status === 'failed') {
      logger.warn({ ...fields, error: record.error }, 'webhook delivery failed; not retried');
    }
    if (disabled) {
      metrics?.disabled();
      logger.warn(
        { webhookId: claimed.webhookId, disableAfterMs: settings.disableAfterMs },
        'webhook disabled: its deliveries failed for DESKGATE_WEBHOOK_DISABLE_AFTER; webhook/update with enabled true resumes it',
      );
    }
  }

  function track(claimed: ClaimedDelivery): void {
    const done = attempt(claimed)
      .catch((error: unknown) => {
        // The claim's lease runs out and the delivery falls due again: nothing is lost.
        logger.error(
          { err: error, deliveryId: claimed.id },
          'webhook delivery could not be recorded',
        );
      })
      .finally(() => {
        inFlight.delete(done);
        wake();
      });
    inFlight.add(done);
  }

  async function tick(): Promise<void> {
    const nowMs = Date.now();
    if (nowMs - lastRetention >= RETENTION_EVERY_MS) {
      lastRetention = nowMs;
      const forgotten = await data.forgetDeliveriesBefore(nowMs - settings.logRetentionMs);
      if (forgotten > 0)
        logger.debug({ forgotten }, 'webhook delivery log: old deliveries forgotten');
    }
    if (dispatch && (await dispatch()).more) again = true;
    const room = settings.concurrency - inFlight.size;
    if (room <= 0) return;
    const claimed = await data.claimDue(Date.now(), leaseMs, room).catch((error: unknown) => {
      // The claim and its read are one transaction: nothing was taken, no attempt counted.
      logger.warn(
        { err: error },
        'webhook deliveries could not be claimed and read; none was counted as an attempt',
      );
      return [];
    });
    for (const delivery of claimed) track(delivery);
    if (claimed.length === room) again = true;
  }

  function schedule(delayMs: number): void {
    if (stopped) return;
    clearTimeout(timer);
    timer = setTimeout(run, delayMs);
  }

  function run(): void {
    if (stopped) return;
    if (running) {
      again = true;
      return;
    }
    again = false;
    running = tick()
      .catch((error: unknown) => {
        logger.warn(
          { err: error },
          'webhook deliveries: the database did not answer; trying again',
        );
      })
      .finally(() => {
        running = undefined;
        schedule(again ? 0 : settings.pollIntervalMs);
      });
  }

  function wake(): void {
    schedule(0);
  }

  if (settings.concurrency > 0) schedule(0);
  return {
    wake,
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
      await Promise.allSettled([...inFlight]);
    },
  };
}
