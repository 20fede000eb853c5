import { type Kysely, sql } from 'kysely';
import { StoreError } from '../store.ts';

/** The tables deskgate reads or writes (`user__cdata` is optional: osTicket creates it lazily). */
const REQUIRED = [
  'help_topic',
  'api_key',
  'user',
  'user_email',
  'user_account',
  'form',
  'form_field',
  'form_entry',
  'form_entry_values',
  '_search',
  'organization',
];

/** Fails with one clear message when the database is not an osTicket database with this prefix. */
export async function assertOsticketTables<DB>(db: Kysely<DB>, prefix: string): Promise<void> {
  const { rows } = await sql<{
    name: string;
  }>`select table_name as name from information_schema.tables
    where table_schema = database()`.execute(db);
  const present = new Set(rows.map((r) => r.name));
  const missing = REQUIRED.map((t) => `${prefix}${t}`).filter((t) => !present.has(t));
  if (missing.length > 0) {
    throw new OsticketSchemaError(
      `DESKGATE_SCHEMA=osticket: this database has no ${missing.join(', ')} (or deskgate's user may not use them); check DESKGATE_TABLE_PREFIX (now "${prefix}") and the grants`,
    );
  }
}

export class OsticketSchemaError extends StoreError {
  override name = 'OsticketSchemaError';
}
