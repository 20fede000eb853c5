import type { Selectable } from 'kysely';
import { insertReturningId } from '../common/insert-returning-id.ts';
import type { Dialect } from '../dialects/dialect.ts';
import { RejectedValueError } from '../store.ts';
import { formatTimestamp, timestampToMs } from '../time.ts';
import type { TicketEntryTable, Trx } from './own-tickets.ts';

/* What the own schema's ticket writes share (own-tickets.ts, own-ticket-changes.ts). */

/** Adds hours to a `YYYY-MM-DD HH:MM:SS` UTC time (decision 172: no business-hours schedule). */
export function addHours(at: string, hours: number): string {
  return formatTimestamp(new Date(Date.parse(`${at.replace(' ', 'T')}Z`) + hours * 3_600_000));
}

/**
 * The ticket, its row locked until the write's transaction ends (SQLite's write transaction
 * already holds the database's one write lock): changes to one ticket queue, and each sees the
 * one before it.
 */
export async function lockTicket(trx: Trx, dialect: Dialect, ticketId: number) {
  const select = trx.selectFrom('tickets').selectAll().where('id', '=', ticketId);
  const ticket = await (dialect.name === 'sqlite' ? select : select.forUpdate()).executeTakeFirst();
  if (!ticket) throw new RejectedValueError('ticket_id', 'is not an existing ticket');
  return ticket;
}

export type TicketRowOf = Awaited<ReturnType<typeof lockTicket>>;

/**
 * The time of a write to a ticket, its `updated` after: now, or one second after the `updated`
 * it had when that is not earlier, so that every write gives a new `updated` and
 * `if_unmodified_since` tells two changes in one second apart (decision 411).
 */
export function nextUpdated(previous: string, at: string): string {
  const before = formatTimestamp(previous);
  return before < at ? at : formatTimestamp(new Date(timestampToMs(before) + 1000));
}

export async function requireAgent(trx: Trx, staffId: number) {
  const agent = await trx
    .selectFrom('agents')
    .selectAll()
    .where('id', '=', staffId)
    .executeTakeFirst();
  if (!agent) throw new RejectedValueError('staff_id', 'is not an existing agent');
  if (Number(agent.is_active) !== 1)
    throw new RejectedValueError('staff_id', 'is not an active agent');
  return agent;
}

export async function insertEntry(
  trx: Trx,
  dialect: Dialect,
  values: Omit<Selectable<TicketEntryTable>, 'id'>,
): Promise<number> {
  return insertReturningId(trx.insertInto('ticket_entries').values(values), dialect);
}
