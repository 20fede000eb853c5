import type { AttemptResult } from './send-webhook.ts';

/** The longest Retry-After honoured: beyond a day a receiver's wish is a failure. */
const MAX_RETRY_AFTER_MS = 86_400_000;

/** The delivery log's outcome of a delivery (the `status` filter of webhook/deliveries). */
export type DeliveryStatus = 'pending' | 'delivered' | 'failed';

/** What follows an attempt: done, given up, or another try at `nextAttemptMs`. */
export type AttemptOutcome =
  | { status: 'delivered' }
  | { status: 'failed'; reason: 'refused' | 'exhausted' }
  | { status: 'pending'; nextAttemptMs: number };

/**
 * A 2xx is delivered. A network error, a timeout, a refused address (its name may resolve
 * elsewhere later), 429 and 5xx are tried again after the schedule's next wait, or after the
 * receiver's Retry-After when that is longer, until the schedule runs out. Any other status
 * (4xx, a redirect) is the receiver's refusal: no retry.
 */
export function nextAfter(
  result: AttemptResult,
  attemptsMade: number,
  retryDelaysMs: readonly number[],
  nowMs: number,
): AttemptOutcome {
  const { status } = result;
  if (status !== undefined && status >= 200 && status < 300) return { status: 'delivered' };
  const retryable = status === undefined || status === 429 || status >= 500;
  if (!retryable) return { status: 'failed', reason: 'refused' };
  const delay = retryDelaysMs[attemptsMade - 1];
  if (delay === undefined) return { status: 'failed', reason: 'exhausted' };
  const wanted = Math.min(result.retryAfterMs ?? 0, MAX_RETRY_AFTER_MS);
  return { status: 'pending', nextAttemptMs: nowMs + Math.max(delay, wanted) };
}
