import type { Kysely } from 'kysely';
import type { IdempotencyClaim, IdempotencyRecord } from '../../domain.ts';
import type { UniqueIndex } from '../dialects/dialect.ts';
import type { OwnTables } from '../schema.ts';
import { formatTimestamp } from '../time.ts';
import { type Param, prepareQuery } from './prepared-query.ts';

export const IDEMPOTENCY_UNIQUE: UniqueIndex = {
  table: 'idempotency_keys',
  index: 'idempotency_keys_key_unique',
};

const selectRecord = prepareQuery(
  (db: Kysely<OwnTables>, param: Param<{ apiKeyId: number; key: string }>) =>
    db
      .selectFrom('idempotency_keys')
      .select(['fingerprint', 'user_id', 'created_at'])
      .where('api_key_id', '=', param('apiKeyId'))
      .where('idempotency_key', '=', param('key')),
);

export async function findIdempotencyRecord(
  db: Kysely<OwnTables>,
  apiKeyId: number,
  key: string,
): Promise<IdempotencyRecord | undefined> {
  const [row] = (await selectRecord(db, { apiKeyId, key })).rows;
  return (
    row && {
      fingerprint: row.fingerprint,
      userId: Number(row.user_id),
      created: formatTimestamp(row.created_at),
    }
  );
}

/** Deletes the records created before `cutoff`: all of them, or with `only`, that key's record. */
export async function deleteIdempotencyRecordsBefore(
  db: Kysely<OwnTables>,
  cutoff: string,
  only?: { apiKeyId: number; key: string },
): Promise<void> {
  let query = db.deleteFrom('idempotency_keys').where('created_at', '<', cutoff);
  if (only) {
    query = query.where('api_key_id', '=', only.apiKeyId).where('idempotency_key', '=', only.key);
  }
  await query.execute();
}

const insertRecord = prepareQuery(
  (db: Kysely<OwnTables>, param: Param<IdempotencyClaim & { userId: number; at: string }>) =>
    db.insertInto('idempotency_keys').values({
      api_key_id: param('apiKeyId'),
      idempotency_key: param('key'),
      fingerprint: param('fingerprint'),
      user_id: param('userId'),
      created_at: param('at'),
    }),
);

/** Called inside the creation's transaction; a concurrent claim of the same key violates IDEMPOTENCY_UNIQUE. */
export async function insertIdempotencyRecord(
  trx: Kysely<OwnTables>,
  claim: IdempotencyClaim,
  userId: number,
  at: string,
): Promise<void> {
  await insertRecord(trx, { ...claim, userId, at });
}
