import type { Generated, Kysely } from 'kysely';
import { type Param, prepareQuery } from '../common/prepared-query.ts';
import type { UniqueIndex } from '../dialects/dialect.ts';
import { formatTimestamp } from '../time.ts';
import type { StoredAnswer, WriteKey } from './writes.ts';

/**
 * One answered write per (API key, operation, Idempotency-Key), in every layout
 * (`deskgate_idempotency_keys` beside osTicket's tables). Nothing in it is particular to one
 * operation: the answer is the response's `data` as JSON, exactly as it was sent.
 */
export interface IdempotencyKeyTable {
  id: Generated<number>;
  api_key_id: number;
  /** `query/condition`, e.g. `user/add`. */
  operation: string;
  idempotency_key: string;
  /** SHA-256 of the request's parameters, secrets left out (fingerprintOf). */
  fingerprint: string;
  /** The response's `data`, JSON. */
  answer: string;
  created_at: string;
}

export interface IdempotencyTables {
  idempotency_keys: IdempotencyKeyTable;
}

/** The key is unique per API key and operation: a concurrent claim of it fails on this index. */
export const IDEMPOTENCY_UNIQUE: UniqueIndex = {
  table: 'idempotency_keys',
  index: 'idempotency_keys_key_unique',
};

const selectRecord = prepareQuery((db: Kysely<IdempotencyTables>, param: Param<WriteKey>) =>
  db
    .selectFrom('idempotency_keys')
    .select(['fingerprint', 'answer', 'created_at'])
    .where('api_key_id', '=', param('apiKeyId'))
    .where('operation', '=', param('operation'))
    .where('idempotency_key', '=', param('key')),
);

export async function findStoredAnswer(
  db: Kysely<IdempotencyTables>,
  key: WriteKey,
): Promise<StoredAnswer | undefined> {
  const [row] = (await selectRecord(db, key)).rows;
  return (
    row && {
      fingerprint: row.fingerprint,
      answer: row.answer,
      created: formatTimestamp(row.created_at),
    }
  );
}

/** Deletes the records created before `cutoff`: all of them, or with `only`, that key's record. */
export async function deleteStoredAnswersBefore(
  db: Kysely<IdempotencyTables>,
  cutoff: string,
  only?: WriteKey,
): Promise<void> {
  let query = db.deleteFrom('idempotency_keys').where('created_at', '<', cutoff);
  if (only) {
    query = query
      .where('api_key_id', '=', only.apiKeyId)
      .where('operation', '=', only.operation)
      .where('idempotency_key', '=', only.key);
  }
  await query.execute();
}

/** How many answers one DELETE names: far below every driver's bound on parameters. */
const ANSWERS_PER_DELETE = 500;

/** Deletes the records of `operation` whose answer is `answer` (or one of them); resolves to how many. */
export async function deleteStoredAnswersOf(
  db: Kysely<IdempotencyTables>,
  operation: string,
  answer: string | readonly string[],
): Promise<number> {
  const answers = typeof answer === 'string' ? [answer] : answer;
  let deleted = 0;
  for (let start = 0; start < answers.length; start += ANSWERS_PER_DELETE) {
    const result = await db
      .deleteFrom('idempotency_keys')
      .where('operation', '=', operation)
      .where('answer', 'in', answers.slice(start, start + ANSWERS_PER_DELETE))
      .executeTakeFirst();
    deleted += Number(result.numDeletedRows);
  }
  return deleted;
}

const insertRecord = prepareQuery(
  (
    db: Kysely<IdempotencyTables>,
    param: Param<WriteKey & { fingerprint: string; answer: string; at: string }>,
  ) =>
    db.insertInto('idempotency_keys').values({
      api_key_id: param('apiKeyId'),
      operation: param('operation'),
      idempotency_key: param('key'),
      fingerprint: param('fingerprint'),
      answer: param('answer'),
      created_at: param('at'),
    }),
);

/** Called inside the write's transaction; a concurrent claim of the same key violates IDEMPOTENCY_UNIQUE. */
export async function insertStoredAnswer(
  trx: Kysely<IdempotencyTables>,
  record: WriteKey & { fingerprint: string; answer: string; at: string },
): Promise<void> {
  await insertRecord(trx, record);
}

/**
 * The `answer` of a key claimed before a call to osTicket and not answered yet (decision 240):
 * never valid JSON, so never an answer that was sent.
 */
export const PENDING_ANSWER = 'pending';

/** A pending claim: a concurrent claim of the same key violates IDEMPOTENCY_UNIQUE. */
export async function insertPendingClaim(
  db: Kysely<IdempotencyTables>,
  record: WriteKey & { fingerprint: string; at: string },
): Promise<void> {
  await insertRecord(db, { ...record, answer: PENDING_ANSWER });
}

/** Stores the answer under a pending claim; false when the claim is gone or already answered. */
export async function settlePendingClaim(
  db: Kysely<IdempotencyTables>,
  key: WriteKey,
  answer: string,
): Promise<boolean> {
  const result = await db
    .updateTable('idempotency_keys')
    .set({ answer })
    .where('api_key_id', '=', key.apiKeyId)
    .where('operation', '=', key.operation)
    .where('idempotency_key', '=', key.key)
    .where('answer', '=', PENDING_ANSWER)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Frees a key whose call surely wrote nothing (a pending claim only). */
export async function deletePendingClaim(
  db: Kysely<IdempotencyTables>,
  key: WriteKey,
): Promise<void> {
  await db
    .deleteFrom('idempotency_keys')
    .where('api_key_id', '=', key.apiKeyId)
    .where('operation', '=', key.operation)
    .where('idempotency_key', '=', key.key)
    .where('answer', '=', PENDING_ANSWER)
    .execute();
}
