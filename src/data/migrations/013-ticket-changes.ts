import type { Kysely } from 'kysely';
import type { Dialect } from '../dialects/dialect.ts';

/**
 * Working a ticket on deskgate's own schema (issue 35, decision 410): a ticket's team, as
 * osTicket's `ticket.team_id` (0: none), and each event's before and after values, so that a
 * change feed can say what changed without reading the ticket's history back.
 */
export async function up(db: Kysely<unknown>, _dialect: Dialect): Promise<void> {
  await db.schema
    .alterTable('tickets')
    .addColumn('team_id', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .alterTable('ticket_events')
    .addColumn('team_id', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.alterTable('ticket_events').addColumn('changes', 'text').execute();
}
