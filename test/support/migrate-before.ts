import type { Kysely } from 'kysely';
import { type Migration, Migrator } from 'kysely/migration';
import { importMigration, MIGRATIONS } from '../../src/data/migrations/migrations.ts';
import { openDatabase } from '../../src/data/open-database.ts';

/** Brings `url` to deskgate's own schema before migration `first` (e.g. '005'), as an earlier release left it. */
export async function migrateBefore(url: string, first: string): Promise<void> {
  const { db, dialect } = openDatabase(url);
  try {
    const schema = await dialect.currentSchema(db);
    const migrations: Record<string, Migration> = {};
    for (const name of MIGRATIONS.deskgate)
      if (name < first) {
        migrations[name] = { up: async (d) => (await importMigration(name)).up(d, dialect) };
      }
    const { error } = await new Migrator({
      db: db as Kysely<unknown>,
      provider: { getMigrations: async () => migrations },
      migrationTableName: 'deskgate_migration',
      migrationLockTableName: 'deskgate_migration_lock',
      ...(schema ? { migrationTableSchema: schema } : {}),
    }).migrateToLatest();
    if (error) throw error;
  } finally {
    await db.destroy();
  }
}
