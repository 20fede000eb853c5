import type { Kysely, Transaction } from 'kysely';
import type { Actor, IdempotencyClaim } from '../../domain.ts';
import type { Dialect, UniqueIndex } from '../dialects/dialect.ts';
import type { OwnTables } from '../schema.ts';
import { DuplicateEmailError, IdempotencyConflictError } from '../store.ts';
import { now } from '../time.ts';
import { insertAuditEntry } from './audit-log.ts';
import { IDEMPOTENCY_UNIQUE, insertIdempotencyRecord } from './idempotency.ts';
import { ownTables } from './own-tables.ts';

export interface UserCreation<DB> {
  db: Kysely<DB>;
  dialect: Dialect;
  /** The unique index that makes an address taken. */
  emailUnique: UniqueIndex;
  email: string;
  actor: Actor;
  idempotency: IdempotencyClaim | undefined;
  /** Writes the layout's own rows for the user; returns its id. */
  insertRows(trx: Transaction<DB>, at: string): Promise<number>;
}

/**
 * One write transaction for a new user in any layout: its rows, the audit entry and the
 * idempotency record (on SQLite, shared with concurrent creations: Dialect.writeTransaction).
 * Unique violations come back as DuplicateEmailError or IdempotencyConflictError.
 */
export async function recordUserCreation<DB extends OwnTables>(
  creation: UserCreation<DB>,
): Promise<number> {
  const { db, dialect, actor, idempotency } = creation;
  try {
    return await dialect.writeTransaction(db, async (trx) => {
      const at = now();
      const userId = await creation.insertRows(trx, at);
      await insertAuditEntry(ownTables(trx), actor, String(userId), at);
      if (idempotency) await insertIdempotencyRecord(ownTables(trx), idempotency, userId, at);
      return userId;
    });
  } catch (error) {
    if (dialect.isUniqueViolation(error, creation.emailUnique)) {
      throw new DuplicateEmailError(creation.email, { cause: error });
    }
    if (dialect.isUniqueViolation(error, IDEMPOTENCY_UNIQUE)) {
      throw new IdempotencyConflictError(idempotency?.key, { cause: error });
    }
    throw error;
  }
}
