import { expireIdempotencyKeys, storedIdempotencyKeys } from '../support/database-rows.ts';
import type { KindDatabase } from './each-database.ts';

/** deskgate's table of stored answers in an osTicket database (migration osticket-001). */
const OSTICKET_IDEMPOTENCY_TABLE = 'deskgate_idempotency_keys';

/** Dates the stored answers of `keys` back to 2000, past every expiry, on any kind of database. */
export async function expireIdempotencyKeysOfKind(
  database: KindDatabase,
  keys: readonly string[],
): Promise<void> {
  const { osticket } = database;
  if (!osticket) return expireIdempotencyKeys(database.url, keys);
  await osticket.query(
    `UPDATE \`${OSTICKET_IDEMPOTENCY_TABLE}\` SET created_at = '2000-01-01 00:00:00'
     WHERE idempotency_key IN (?)`,
    [keys],
  );
}

/** Which of `keys` still have a stored answer, one entry per stored row, sorted, on any kind of database. */
export async function storedIdempotencyKeysOfKind(
  database: KindDatabase,
  keys: readonly string[],
): Promise<string[]> {
  const { osticket } = database;
  if (!osticket) return storedIdempotencyKeys(database.url, keys);
  const rows = await osticket.query<{ idempotency_key: string }>(
    `SELECT idempotency_key FROM \`${OSTICKET_IDEMPOTENCY_TABLE}\` WHERE idempotency_key IN (?)`,
    [keys],
  );
  return rows.map((row) => String(row.idempotency_key)).sort();
}
