import type { Selectable, Transaction } from 'kysely';
import type { Dialect } from '../dialects/dialect.ts';
import { feedTicketEvent } from './own-ticket-feed.ts';
import type { OwnTicketTables, TicketEventTable } from './own-tickets.ts';

/** A value before and after a change, e.g. `status_id: [1, 3]`. */
export type EventChanges = Readonly<Record<string, readonly [unknown, unknown]>>;

/**
 * One row of a ticket's history, as osTicket's `ost_thread_event`: `kind` is osTicket's event
 * name (created, closed, reopened, assigned, released, transferred, edited), `data` its own data
 * for that event (e.g. `{"status":[3,"Closed"]}`), `staff_id` the agent who acted (0: none),
 * `dept_id`, `topic_id` and `team_id` the ticket's after the change, and `changes` the columns
 * before and after (decision 410).
 */
export interface NewTicketEvent
  extends Omit<Selectable<TicketEventTable>, 'id' | 'data' | 'changes'> {
  data: unknown;
  changes: EventChanges | null;
}

/**
 * The one way a ticket event is written on deskgate's own schema, in the change's own
 * transaction (every ticket write's events go through here), with its event in the change feed.
 */
export async function insertTicketEvent(
  trx: Transaction<OwnTicketTables>,
  dialect: Dialect,
  row: NewTicketEvent,
): Promise<void> {
  const stored = {
    ticket_id: row.ticket_id,
    kind: row.kind,
    staff_id: row.staff_id,
    user_id: row.user_id,
    dept_id: row.dept_id,
    topic_id: row.topic_id,
    team_id: row.team_id,
    data: row.data === null || row.data === undefined ? null : JSON.stringify(row.data),
    changes: row.changes === null ? null : JSON.stringify(row.changes),
    at: row.at,
  };
  await trx.insertInto('ticket_events').values(stored).execute();
  await feedTicketEvent(trx, dialect, stored);
}
