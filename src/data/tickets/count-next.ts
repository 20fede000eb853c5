import { sql, type Transaction } from 'kysely';
import type { CounterTable } from './own-tickets.ts';

/**
 * Takes the next number of a numbered kind (`ticket`, `task`) inside the creating transaction.
 * The UPDATE locks the counter's row until the transaction ends, so concurrent creations queue
 * on it and each reads its own increment: no two get the same number on any database.
 */
export async function takeNextNumber(
  trx: Transaction<{ counters: CounterTable }>,
  kind: string,
): Promise<string> {
  await trx
    .updateTable('counters')
    .set({ next: sql<number>`next + 1` })
    .where('name', '=', kind)
    .execute();
  const row = await trx
    .selectFrom('counters')
    .select('next')
    .where('name', '=', kind)
    .executeTakeFirstOrThrow();
  // osTicket's sequential format `######`: six digits, zero-padded, wider when it must.
  return String(Number(row.next) - 1).padStart(6, '0');
}
