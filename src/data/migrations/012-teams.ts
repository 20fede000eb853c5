import type { Kysely } from 'kysely';
import type { Dialect } from '../dialects/dialect.ts';
import { TIMESTAMP, withCharset, withId } from './column-types.ts';

/**
 * Teams on deskgate's own schema (team/all; ticket/assign's `team_id` will name one): a unique
 * name and whether the team is enabled, as osTicket's `team` (flags bit 1). None at first, as a
 * fresh osTicket has none but the installer's sample.
 */
export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  await withCharset(
    withId(db.schema.createTable('teams').ifNotExists(), dialect.name),
    dialect.name,
  )
    .addColumn('name', 'varchar(125)', (c) => c.notNull().unique())
    .addColumn('is_enabled', 'integer', (c) => c.notNull())
    .addColumn('created_at', TIMESTAMP, (c) => c.notNull())
    .addColumn('updated_at', TIMESTAMP, (c) => c.notNull())
    .execute();
}
