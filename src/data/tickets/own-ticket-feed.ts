import type { Insertable, Kysely, Transaction } from 'kysely';
import { type Param, prepareQuery } from '../common/prepared-query.ts';
import type { Dialect } from '../dialects/dialect.ts';
import { appendEvents } from '../events/events.ts';
import { feedEventOfEntry, feedEventOfThreadEvent } from '../events/thread-events.ts';
import { eventActor } from '../events/write-origin.ts';
import type { OwnTicketTables, TicketEventTable } from './own-tickets.ts';

type Trx = Transaction<OwnTicketTables>;

// Prepared (built and compiled once): each change's event reads both (bench/event-cost.ts).
const selectNumber = prepareQuery((db: Kysely<OwnTicketTables>, param: Param<{ id: number }>) =>
  db.selectFrom('tickets').select('number').where('id', '=', param('id')),
);
const selectAgentName = prepareQuery((db: Kysely<OwnTicketTables>, param: Param<{ id: number }>) =>
  db.selectFrom('agents').select('name').where('id', '=', param('id')),
);

async function ticketNumber(trx: Trx, ticketId: number): Promise<string> {
  const { rows } = await selectNumber(trx, { id: ticketId });
  return rows[0]?.number ?? '';
}

async function agent(trx: Trx, staffId: number) {
  if (staffId === 0) return undefined;
  const { rows } = await selectAgentName(trx, { id: staffId });
  return { type: 'staff' as const, id: staffId, name: rows[0]?.name ?? '' };
}

/**
 * The feed's event of a `ticket_events` row, appended in the same transaction (decision 380):
 * every insert into `ticket_events` calls it.
 */
export async function feedTicketEvent(
  trx: Trx,
  dialect: Dialect,
  row: Insertable<TicketEventTable>,
): Promise<void> {
  const event = feedEventOfThreadEvent(
    {
      ticketId: row.ticket_id,
      ticketNumber: await ticketNumber(trx, row.ticket_id),
      state: row.kind,
      deptId: row.dept_id,
      topicId: row.topic_id,
      data: row.data ?? null,
      at: row.at,
    },
    eventActor(await agent(trx, row.staff_id)),
  );
  if (!event) return;
  // The own schema keeps every change's columns before and after (decision 410): the feed's `changes`.
  const changes = typeof row.changes === 'string' ? (JSON.parse(row.changes) as object) : null;
  await appendEvents(trx, dialect.name, [
    changes ? { ...event, changes: { ...event.changes, ...changes } } : event,
  ]);
}

/**
 * The feed's event of a new entry (message, response or note; never its body). A caller that has
 * the ticket's row passes its number (one statement fewer per change).
 */
export async function feedEntry(
  trx: Trx,
  dialect: Dialect,
  entry: {
    id: number;
    ticket_id: number;
    type: string;
    staff_id: number;
    user_id: number;
    poster: string;
    created_at: string;
  },
  knownNumber?: string,
): Promise<void> {
  const person =
    entry.staff_id > 0
      ? { type: 'staff' as const, id: entry.staff_id, name: entry.poster }
      : entry.user_id > 0
        ? { type: 'user' as const, id: entry.user_id, name: entry.poster }
        : undefined;
  const event = feedEventOfEntry(
    {
      ticketId: entry.ticket_id,
      ticketNumber: knownNumber ?? (await ticketNumber(trx, entry.ticket_id)),
      entryId: entry.id,
      type: entry.type,
      staffId: entry.staff_id,
      userId: entry.user_id,
      at: entry.created_at,
    },
    eventActor(person),
  );
  if (event) await appendEvents(trx, dialect.name, [event]);
}
