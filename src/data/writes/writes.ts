import type { Actor } from '../../domain.ts';
import { defineEntity, type WriteTransaction } from '../entity.ts';
import { makeWrites } from './record-write.ts';

/** Where an Idempotency-Key's answer is kept: per API key and operation. */
export interface WriteKey {
  apiKeyId: number;
  /** `query/condition`, e.g. `user/add`. */
  operation: string;
  key: string;
}

/** The answer a write with an Idempotency-Key gave. */
export interface StoredAnswer {
  fingerprint: string;
  /** The response's `data` as JSON, exactly as it was sent. */
  answer: string;
  created: string;
}

/** A write as Writes.recordWrite runs it: `run` with its audit entry and stored answer. */
export interface RecordedWrite<Result, Answer> {
  actor: Actor;
  /**
   * With an Idempotency-Key: the answer is stored under it, in the same transaction; `pending`:
   * under the pending claim Writes.claimKey made before a call to osTicket.
   */
  claim?: { key: string; fingerprint: string; pending?: boolean } | undefined;
  /** The entity's rows, in the write's transaction (`at`: its timestamp). */
  run(trx: WriteTransaction, at: string): Promise<Result>;
  /** What the audit log names as the write's target (the new row's id). */
  targetId(result: Result): string;
  /** What the call log says the write did, e.g. `created user 42`. */
  outcome(result: Result): string;
  /** The response's `data`, stored as JSON under the claim. */
  answer(result: Result): Answer;
}

/** The generic write path every layout shares (idempotency and audit, never one entity's columns). */
export interface Writes {
  /**
   * Runs the write, its audit entry, the answer under its claim and (osTicket with
   * DESKGATE_OSTICKET_SYSLOG) its System Logs row in one write transaction. Throws
   * IdempotencyConflictError when another request stored an answer under the same key first.
   */
  recordWrite<Result, Answer>(write: RecordedWrite<Result, Answer>): Promise<Answer>;
  findStoredAnswer(key: WriteKey): Promise<StoredAnswer | undefined>;
  /**
   * Claims the key before a call whose effect is outside this database (osTicket's API):
   * committed at once, answer PENDING_ANSWER. IdempotencyConflictError when it is taken.
   */
  claimKey(key: WriteKey, fingerprint: string): Promise<void>;
  /** Frees a pending claim whose call surely wrote nothing. */
  releaseClaim(key: WriteKey): Promise<void>;
  /** Forgets the answers stored before `cutoff`: all of them, or with `only`, that key's. */
  forgetAnswersBefore(cutoff: string, only?: WriteKey): Promise<void>;
  /**
   * In a write's transaction, forgets the stored answers of `operation` that are exactly `answer`
   * or one of `answer` (JSON as stored, e.g. user/add's `"42"`); resolves to how many.
   */
  forgetAnswersOf(
    trx: WriteTransaction,
    operation: string,
    answer: string | readonly string[],
  ): Promise<number>;
}

export { IdempotencyConflictError } from './idempotency-conflict-error.ts';

export const writes = defineEntity<Writes>({
  name: 'writes',
  own: makeWrites,
  osticket: makeWrites,
  osticketRequires: {
    comment:
      "deskgate's own tables, which it creates at the first start (and alters when it upgrades them)",
    tables: [
      {
        table: 'audit_log',
        own: true,
        privileges: ['CREATE', 'INDEX', 'SELECT', 'INSERT', 'DELETE'],
      },
      {
        // Every write's events are inserted last in its transaction (decision 381).
        table: 'events',
        own: true,
        privileges: ['CREATE', 'INDEX', 'SELECT', 'INSERT', 'UPDATE', 'DELETE'],
      },
      {
        table: 'idempotency_keys',
        own: true,
        // UPDATE: an answer stored under a key claimed before a call to osTicket (decision 240).
        privileges: ['CREATE', 'ALTER', 'INDEX', 'SELECT', 'INSERT', 'UPDATE', 'DELETE'],
      },
    ],
  },
});
