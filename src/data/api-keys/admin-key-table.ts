import { type Kysely, sql } from 'kysely';
import { TIMESTAMP, withCharset, withId } from '../migrations/column-types.ts';
import { OWN_TABLE_PREFIX } from '../osticket/osticket-requirements.ts';
import type { DialectName } from '../store.ts';

/**
 * The first id of deskgate's own admin keys in an osTicket database: above any id osTicket's
 * `api_key` reaches, so one number names one key in `keys revoke` and in the audit log.
 */
export const ADMIN_KEY_FIRST_ID = 1_000_001;

/**
 * `deskgate_api_keys` in an osTicket database, with the columns of the own schema's `api_keys`.
 * Created at start only with DESKGATE_OSTICKET_ADMIN_WRITES=true, not by a versioned migration:
 * an install without admin writes needs no grant on it (decision 270). May run again.
 */
export async function createAdminKeyTable(db: Kysely<object>, dialect: DialectName): Promise<void> {
  await withCharset(
    withId(db.schema.createTable(`${OWN_TABLE_PREFIX}api_keys`).ifNotExists(), dialect),
    dialect,
  )
    .addColumn('name', 'varchar(128)', (c) => c.notNull())
    .addColumn('key_hash', 'char(64)', (c) => c.notNull().unique())
    .addColumn('scopes', 'varchar(64)', (c) => c.notNull())
    .addColumn('allow_ips', 'text', (c) => c.notNull())
    .addColumn('created_at', TIMESTAMP, (c) => c.notNull())
    .addColumn('last_used_at', TIMESTAMP)
    .addColumn('revoked_at', TIMESTAMP)
    .addColumn('expires_at', TIMESTAMP)
    .addColumn('replaced_by', 'integer')
    .addColumn('notes', 'integer', (c) => c.notNull().defaultTo(0))
    .modifyEnd(sql`auto_increment = ${sql.raw(String(ADMIN_KEY_FIRST_ID))}`)
    .execute();
}
