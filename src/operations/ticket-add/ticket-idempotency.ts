import { createHash } from 'node:crypto';
import type { Store } from '../../data/store.ts';
import { formatTimestamp } from '../../data/time.ts';
import type { IdempotencyClaim } from '../../domain.ts';
import { DeskgateError } from '../../errors.ts';
import { MESSAGES } from '../../messages.ts';

/** How long an Idempotency-Key is remembered, as for user/add. */
const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;

/**
 * The claim of a write: the fingerprint names the operation as well as the parameters, so a key
 * used for user/add and then for ticket/add is a mismatch, never another operation's answer.
 * (decision 173: the idempotency table's target column holds the ticket id until the generic
 * write path of issue 24 replaces this.)
 */
export function claimOf(
  operation: string,
  apiKeyId: number,
  key: string,
  parameters: Readonly<Record<string, unknown>>,
): IdempotencyClaim {
  const canonical = JSON.stringify([
    operation,
    Object.entries(parameters).sort(([a], [b]) => a.localeCompare(b)),
  ]);
  return { apiKeyId, key, fingerprint: createHash('sha256').update(canonical).digest('hex') };
}

/** The id an earlier request with this claim wrote, undefined if none (an expired record is forgotten). */
export async function replayedId(
  store: Store,
  claim: IdempotencyClaim,
): Promise<number | undefined> {
  const record = await store.findIdempotencyRecord(claim.apiKeyId, claim.key);
  if (!record) return undefined;
  const cutoff = formatTimestamp(new Date(Date.now() - IDEMPOTENCY_TTL_MS));
  if (record.created < cutoff) {
    await store.deleteIdempotencyRecordsBefore(cutoff, claim);
    return undefined;
  }
  if (record.fingerprint !== claim.fingerprint) {
    throw new DeskgateError('idempotency_mismatch', MESSAGES.idempotencyMismatch);
  }
  return record.userId;
}
