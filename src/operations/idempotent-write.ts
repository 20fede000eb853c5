import { createHash } from 'node:crypto';
import { formatTimestamp } from '../data/time.ts';
import { PENDING_ANSWER } from '../data/writes/idempotency-records.ts';
import { IdempotencyConflictError, type WriteKey, type Writes } from '../data/writes/writes.ts';
import type { ApiKey } from '../domain.ts';
import { DeskgateError } from '../errors.ts';
import { MESSAGES } from '../messages.ts';

/** How long an Idempotency-Key's answer is kept. */
const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;
/**
 * How often a process deletes the expired answers: a sweep on every write cost a DELETE per
 * write. It only keeps the table small; an expired answer is never replayed, and the replay
 * check deletes an expired answer of its own key at once, freeing the key.
 */
const SWEEP_INTERVAL_MS = 60_000;
const lastSweeps = new WeakMap<Writes, number>();

function cutoff(): string {
  return formatTimestamp(new Date(Date.now() - IDEMPOTENCY_TTL_MS));
}

/** Deletes the expired answers, at most once per SWEEP_INTERVAL_MS for one database. */
async function sweepExpiredAnswers(writes: Writes): Promise<void> {
  const now = Date.now();
  if (now - (lastSweeps.get(writes) ?? Number.NEGATIVE_INFINITY) < SWEEP_INTERVAL_MS) return;
  lastSweeps.set(writes, now);
  await writes.forgetAnswersBefore(cutoff());
}

/**
 * Identifies a request's parameters for its Idempotency-Key: SHA-256 of their canonical JSON.
 * `secrets` are left out so that no fast hash of them is stored; a write that has them checks
 * them on replay instead (IdempotentWrite.confirm).
 */
export function fingerprintOf(
  parameters: Readonly<Record<string, unknown>>,
  secrets: readonly string[] = [],
): string {
  const kept = Object.entries(parameters).filter(([name]) => !secrets.includes(name));
  const canonical = JSON.stringify(kept.sort(([a], [b]) => a.localeCompare(b)));
  return createHash('sha256').update(canonical).digest('hex');
}

/** The claim a write passes to Writes.recordWrite, which stores its answer under it. */
export interface Claim {
  key: string;
  fingerprint: string;
}

export interface IdempotentWrite<Answer> {
  /** The request's fingerprintOf. */
  fingerprint: string;
  /**
   * Whether this request's secrets (left out of the fingerprint) are the ones of the write that
   * gave `answer`; user/add checks the password against the new user's hash.
   */
  confirm?: (answer: Answer) => Promise<boolean>;
  /** Does the write, passing `claim` (undefined without an Idempotency-Key) to Writes.recordWrite. */
  write(claim: Claim | undefined): Promise<Answer>;
}

/** Who calls, and the Idempotency-Key they sent: the operation's context. */
export interface WriteCaller {
  apiKey: ApiKey;
  operation: string;
  idempotencyKey: string | undefined;
}

const NONE = Symbol('no stored answer');

function writeKeyOf(caller: WriteCaller, idempotencyKey: string): WriteKey {
  return { apiKeyId: caller.apiKey.id, operation: caller.operation, key: idempotencyKey };
}

/**
 * The answer stored under `key`, as it was sent; NONE when there is none (or it expired, and is
 * then forgotten at once). The same key with other parameters is 422 idempotency_mismatch.
 */
async function replay<Answer>(
  writes: Writes,
  key: WriteKey,
  request: IdempotentWrite<Answer>,
): Promise<Answer | typeof NONE> {
  const stored = await writes.findStoredAnswer(key);
  if (!stored) return NONE;
  const limit = cutoff();
  if (stored.created < limit) {
    // Expired: forgotten, and the key is free again (the periodic sweep may not have run yet).
    await writes.forgetAnswersBefore(limit, key);
    return NONE;
  }
  const answer = JSON.parse(stored.answer) as Answer;
  const same =
    stored.fingerprint === request.fingerprint &&
    (request.confirm === undefined || (await request.confirm(answer)));
  if (!same) throw new DeskgateError('idempotency_mismatch', MESSAGES.idempotencyMismatch);
  return answer;
}

/**
 * Runs a write at most once per (API key, operation, Idempotency-Key) within 24 hours: a retry
 * gets the first answer as it was sent. The race between two requests with one key is decided
 * by the database: the answer is stored in the write's own transaction under a unique key, so
 * the second write fails (on that key, or on the entity's own unique index) and, finding the
 * first one's answer, replays it.
 */
export async function writeOnce<Answer>(
  writes: Writes,
  caller: WriteCaller,
  request: IdempotentWrite<Answer>,
): Promise<Answer> {
  if (caller.idempotencyKey === undefined) return request.write(undefined);
  const key = writeKeyOf(caller, caller.idempotencyKey);
  const earlier = await replay(writes, key, request);
  if (earlier !== NONE) return earlier;
  await sweepExpiredAnswers(writes);
  try {
    return await request.write({ key: key.key, fingerprint: request.fingerprint });
  } catch (error) {
    // A concurrent request with this key may have won: then this one is its retry.
    let concurrent: Answer | typeof NONE;
    try {
      concurrent = await replay(writes, key, request);
    } catch (replayError) {
      if (replayError instanceof DeskgateError) throw replayError;
      throw error;
    }
    if (concurrent !== NONE) return concurrent;
    throw error;
  }
}

/** A write done by another system's code (osTicket's), claimed here before it is called. */
export interface RemoteWrite<Result, Answer> {
  fingerprint: string;
  /**
   * How long after its claim a call may still be running there: its timeout plus what the other
   * side may take to finish after deskgate stopped waiting. Before it, a retry answers 409.
   */
  settleMs: number;
  /** Calls the other system. */
  call(): Promise<Result>;
  /** Records what it wrote; with `claim`, through Writes.recordWrite under the pending claim. */
  store(result: Result, claim: (Claim & { pending: true }) | undefined): Promise<Answer>;
  /**
   * After `settleMs`: what an unanswered earlier call with this key wrote, found by what it was
   * asked to write (created at most `ageMs` ago); undefined when it wrote nothing.
   */
  recover(ageMs: number): Promise<Result | undefined>;
}

/**
 * Decision 240: the key is claimed (committed) before the call, and the answer stored under the
 * claim after it, so no retry calls the other system while an earlier call may still be writing.
 * A retry finds: the answer (replayed); a young claim (409 write_in_progress, Retry-After); an
 * old claim with no answer, after a timeout or a crash (recover: the ticket it made, else a fresh
 * call). A call refused for sure frees its claim at once.
 */
export async function writeOnceRemotely<Result, Answer>(
  writes: Writes,
  caller: WriteCaller,
  request: RemoteWrite<Result, Answer>,
): Promise<Answer> {
  if (caller.idempotencyKey === undefined) return request.store(await request.call(), undefined);
  const key = writeKeyOf(caller, caller.idempotencyKey);
  const claim = { key: key.key, fingerprint: request.fingerprint, pending: true as const };
  for (let attempt = 0; attempt < 2; attempt += 1) {
    const stored = await writes.findStoredAnswer(key);
    if (stored && stored.created < cutoff()) {
      await writes.forgetAnswersBefore(cutoff(), key);
    } else if (stored) {
      if (stored.fingerprint !== request.fingerprint) {
        throw new DeskgateError('idempotency_mismatch', MESSAGES.idempotencyMismatch);
      }
      if (stored.answer !== PENDING_ANSWER) return JSON.parse(stored.answer) as Answer;
      const ageMs = Date.now() - Date.parse(`${stored.created.replace(' ', 'T')}Z`);
      if (ageMs < request.settleMs) {
        const wait = Math.max(1, Math.ceil((request.settleMs - ageMs) / 1000));
        throw new DeskgateError('write_in_progress', MESSAGES.writeInProgress, {
          headers: { 'Retry-After': String(wait) },
        });
      }
      const recovered = await request.recover(ageMs);
      if (recovered !== undefined) return request.store(recovered, claim);
      await writes.releaseClaim(key);
    }
    await sweepExpiredAnswers(writes);
    try {
      await writes.claimKey(key, request.fingerprint);
    } catch (error) {
      if (error instanceof IdempotencyConflictError) continue;
      throw error;
    }
    let result: Result;
    try {
      result = await request.call();
    } catch (error) {
      // Only an unanswered call keeps its claim: osTicket may have written.
      if (!(error instanceof DeskgateError && error.code === 'osticket_timeout')) {
        await writes.releaseClaim(key);
      }
      throw error;
    }
    // The other system wrote: if storing fails the claim stays, and a retry recovers the result.
    return request.store(result, claim);
  }
  throw new DeskgateError('write_in_progress', MESSAGES.writeInProgress, {
    headers: { 'Retry-After': '1' },
  });
}
