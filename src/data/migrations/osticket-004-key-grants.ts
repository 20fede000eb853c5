import type { Kysely } from 'kysely';
import type { Dialect } from '../dialects/dialect.ts';
import { TIMESTAMP, withCharset } from './column-types.ts';

/**
 * `deskgate_key_grants`: what the admin granted an osTicket key through deskgate beyond what
 * osTicket itself lets it do (`deskgate osticket keys grant`, SPEC §4a), one row per osTicket key
 * id. osTicket's own `api_key` is never altered.
 */
export async function up(db: Kysely<unknown>, { name: dialect }: Dialect): Promise<void> {
  await withCharset(db.schema.createTable('deskgate_key_grants').ifNotExists(), dialect)
    .addColumn('osticket_key_id', 'integer', (c) => c.primaryKey())
    .addColumn('scopes', 'varchar(128)', (c) => c.notNull())
    .addColumn('notes', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('agents', 'varchar(255)', (c) => c.notNull().defaultTo(''))
    .addColumn('organizations', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('confirmed_accounts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('granted_at', TIMESTAMP, (c) => c.notNull())
    .execute();
}
