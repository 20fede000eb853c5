import { CompiledQuery, type Kysely, sql } from 'kysely';
import { StoreError } from '../store.ts';
import {
  isRequired,
  type OptionalRequirements,
  type OsticketTableRequirement,
  tableName,
} from './osticket-requirements.ts';

export class OsticketSchemaError extends StoreError {
  override name = 'OsticketSchemaError';
}

/**
 * Fails with one clear message when the database is not an osTicket database with this prefix:
 * a table deskgate needs is missing (deskgate's own tables and lazily created ones aside).
 */
export async function assertOsticketTables<DB>(
  db: Kysely<DB>,
  prefix: string,
  requirements: readonly OsticketTableRequirement[],
): Promise<void> {
  const { rows } = await sql<{
    name: string;
  }>`select table_name as name from information_schema.tables
    where table_schema = database()`.execute(db);
  const present = new Set(rows.map((r) => r.name));
  const missing = requirements
    .filter((r) => !r.own && !r.optional && !r.syslogOnly && !r.adminOnly)
    .map((r) => tableName(r, prefix))
    .filter((t) => !present.has(t));
  if (missing.length > 0) {
    throw new OsticketSchemaError(
      `DESKGATE_SCHEMA=osticket: this database has no ${missing.join(', ')} (or deskgate's user may not use them); check DESKGATE_TABLE_PREFIX (now "${prefix}") and the grants`,
    );
  }
}

/**
 * Reads no row but names every column deskgate uses, so that a table that is gone, renamed,
 * missing a column or no longer readable by deskgate's database user fails here: at start, and
 * on /readyz, not first in a caller's request. `db` adds the prefix (TablePrefixPlugin).
 */
export async function assertTablesReadable(
  db: Kysely<object>,
  requirements: readonly OsticketTableRequirement[],
  optional: OptionalRequirements = {},
): Promise<void> {
  const probed = requirements.filter(
    (r) => !r.own && (r.columns?.length ?? 0) > 0 && isRequired(r, optional),
  );
  const loose = db as unknown as Kysely<Record<string, Record<string, unknown>>>;
  // One after the other: a readiness probe should not take most of the pool at once.
  for (const requirement of probed) {
    const { sql: text, parameters } = loose
      .selectFrom(requirement.table)
      .select(requirement.columns as string[])
      .compile();
    await db.executeQuery(CompiledQuery.raw(`${text} limit 0`, [...parameters]));
  }
}
