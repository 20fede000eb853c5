import { callLog } from '../call-log/call-log.ts';
import { type DataHandle, tablesOf } from '../entity.ts';
import { flushHeldEvents, withWriteOrigin } from '../events/write-origin.ts';
import { now } from '../time.ts';
import {
  type AuditEntry,
  type AuditLogTables,
  insertAuditEntry,
  insertAuditEntryAndEvents,
} from './audit-log.ts';
import { IdempotencyConflictError } from './idempotency-conflict-error.ts';
import {
  deletePendingClaim,
  deleteStoredAnswersBefore,
  deleteStoredAnswersOf,
  findStoredAnswer,
  IDEMPOTENCY_UNIQUE,
  type IdempotencyTables,
  insertPendingClaim,
  insertStoredAnswer,
  settlePendingClaim,
} from './idempotency-records.ts';
import type { Writes } from './writes.ts';

/**
 * The write path over deskgate's own tables, the same in every layout (in an osTicket database
 * they are `deskgate_…` beside osTicket's). On SQLite, concurrent writes share one transaction,
 * each in a savepoint of its own (Dialect.writeTransaction).
 */
export function makeWrites(handle: DataHandle): Writes {
  const { dialect } = handle;
  const db = tablesOf<IdempotencyTables>(handle.db);
  const log = handle.layout === 'osticket' ? callLog.osticket(handle) : callLog.own(handle);
  return {
    async recordWrite(write) {
      const { actor, claim } = write;
      try {
        return await dialect.writeTransaction(handle.db, (trx) =>
          // The write's events (the feed) name its actor, and are inserted last (decision 381), with
          // its audit entry.
          withWriteOrigin(actor, async () => {
            const at = now();
            const result = await write.run(trx, at);
            const answer = write.answer(result);
            if (claim?.pending) {
              const key = { apiKeyId: actor.apiKeyId, operation: actor.operation, key: claim.key };
              if (
                !(await settlePendingClaim(
                  tablesOf<IdempotencyTables>(trx),
                  key,
                  JSON.stringify(answer),
                ))
              ) {
                throw new IdempotencyConflictError(claim.key);
              }
            } else if (claim) {
              await insertStoredAnswer(tablesOf<IdempotencyTables>(trx), {
                apiKeyId: actor.apiKeyId,
                operation: actor.operation,
                key: claim.key,
                fingerprint: claim.fingerprint,
                answer: JSON.stringify(answer),
                at,
              });
            }
            await log.recordWrite?.(trx, actor, write.outcome(result));
            // The audit entry goes with the first events (one statement on PostgreSQL).
            let entry: AuditEntry | undefined = {
              ...actor,
              targetId: write.targetId(result),
              at,
            };
            await flushHeldEvents(async (held, events) => {
              const first = entry;
              entry = undefined;
              await insertAuditEntryAndEvents(tablesOf(held), dialect.name, first, events);
            });
            if (entry) await insertAuditEntry(tablesOf<AuditLogTables>(trx), entry);
            return answer;
          }),
        );
      } catch (error) {
        if (dialect.isUniqueViolation(error, IDEMPOTENCY_UNIQUE)) {
          throw new IdempotencyConflictError(claim?.key, { cause: error });
        }
        throw error;
      }
    },
    findStoredAnswer: (key) => findStoredAnswer(db, key),
    async claimKey(key, fingerprint) {
      try {
        await insertPendingClaim(db, { ...key, fingerprint, at: now() });
      } catch (error) {
        if (dialect.isUniqueViolation(error, IDEMPOTENCY_UNIQUE)) {
          throw new IdempotencyConflictError(key.key, { cause: error });
        }
        throw error;
      }
    },
    releaseClaim: (key) => deletePendingClaim(db, key),
    forgetAnswersBefore: (cutoff, only) => deleteStoredAnswersBefore(db, cutoff, only),
    forgetAnswersOf: (trx, operation, answer) =>
      deleteStoredAnswersOf(tablesOf<IdempotencyTables>(trx), operation, answer),
  };
}
