import { type Kysely, sql } from 'kysely';
import { type Migration, type MigrationResultSet, Migrator } from 'kysely/migration';
import type { Dialect } from '../dialects/dialect.ts';
import { StoreError } from '../store.ts';
import { importMigration, type Layout, MIGRATIONS } from './migrations.ts';

async function makeMigrator<DB>(
  db: Kysely<DB>,
  dialect: Dialect,
  layout: Layout,
): Promise<Migrator> {
  const schema = await dialect.currentSchema(db);
  const migrations: Record<string, Migration> = {};
  for (const name of MIGRATIONS[layout])
    migrations[name] = { up: async (d) => (await importMigration(name)).up(d, dialect) };
  return new Migrator({
    db: db as Kysely<unknown>,
    provider: { getMigrations: async () => migrations },
    migrationTableName: 'deskgate_migration',
    migrationLockTableName: 'deskgate_migration_lock',
    ...(schema ? { migrationTableSchema: schema } : {}),
  });
}

/** Applies every pending migration; returns the names applied. Throws on the first failure. */
export async function migrateToLatest<DB>(
  db: Kysely<DB>,
  dialect: Dialect,
  layout: Layout,
): Promise<string[]> {
  const result: MigrationResultSet = await (
    await makeMigrator(db, dialect, layout)
  ).migrateToLatest();
  if (result.error) throw result.error;
  return (result.results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}

/** Thrown where the database has migrations this build does not know: a newer deskgate wrote it. */
export class NewerSchemaError extends StoreError {
  override name = 'NewerSchemaError';
}

/**
 * The migrations of this build the database has not had, read from deskgate_migration: Kysely's
 * migrator lists every table and column of the database first, which every command and start
 * paid for. Refuses a database a newer deskgate has migrated: this build would
 * misread tables it does not know the shape of, and its migrator would call the history corrupt.
 */
export async function pendingMigrations<DB>(
  db: Kysely<DB>,
  dialect: Dialect,
  layout: Layout,
): Promise<string[]> {
  let applied: string[];
  try {
    const { rows } = await sql<{ name: string }>`select name from deskgate_migration`.execute(db);
    applied = rows.map((r) => r.name);
  } catch (error) {
    if (dialect.isUnavailableError(error)) throw error;
    // No migration table yet, or a refusal (no such database, role or grant): Kysely's
    // migrator tells the two apart, and throws the refusal as the database worded it.
    const migrations = await (await makeMigrator(db, dialect, layout)).getMigrations();
    applied = migrations.filter((m) => m.executedAt !== undefined).map((m) => m.name);
  }
  const known = MIGRATIONS[layout];
  const unknown = applied.filter((name) => !known.includes(name)).sort();
  if (unknown.length > 0) {
    throw new NewerSchemaError(
      `this database was written by a newer deskgate (migration ${unknown.join(', ')} unknown); upgrade deskgate`,
    );
  }
  return known.filter((name) => !applied.includes(name));
}
