import { type Kysely, sql } from 'kysely';
import type { Dialect } from '../dialects/dialect.ts';
import { createIndexIfMissing } from './column-types.ts';

/**
 * `tasks/all` of one ticket in (created, id) order, read in that order from an index
 * (decision 430): (ticket_id, id) found the ticket's tasks but sorted them for every page. The
 * new index begins with ticket_id, so it serves every look-up the old one did, which goes.
 */
export async function up(db: Kysely<unknown>, { name }: Dialect): Promise<void> {
  await createIndexIfMissing(db, name, {
    name: 'tasks_ticket_created_at_id',
    table: 'tasks',
    columns: ['ticket_id', 'created_at', 'id'],
  });
  if (name !== 'mysql') {
    await db.schema.dropIndex('tasks_ticket_id').ifExists().execute();
    return;
  }
  // MySQL 8 has no DROP INDEX IF EXISTS, and does not roll DDL back: a second run must pass.
  const { rows } = await sql<{ n: number }>`select count(*) as n from information_schema.statistics
    where table_schema = database() and table_name = 'tasks' and index_name = 'tasks_ticket_id'`.execute(
    db,
  );
  if (Number(rows[0]?.n ?? 0) > 0)
    await db.schema.dropIndex('tasks_ticket_id').on('tasks').execute();
}
