import { existsSync } from 'node:fs';
import type { Config } from '../config.ts';
import { pendingMigrations } from '../data/migrations/migrate.ts';
import { MIGRATIONS } from '../data/migrations/migrations.ts';
import { openDatabase, sqlitePathOf } from '../data/open-database.ts';

export interface MigrationStatus {
  applied: string[];
  pending: string[];
}

/**
 * Which of this build's migrations the database has, changing nothing: a SQLite file that does
 * not exist is not created (all pending), a database a newer deskgate wrote is refused.
 */
export async function readMigrationStatus(config: Readonly<Config>): Promise<MigrationStatus> {
  const all = [...MIGRATIONS[config.schema]];
  const path = sqlitePathOf(config.databaseUrl);
  if (path !== undefined && path !== '' && path !== ':memory:' && !existsSync(path))
    return { applied: [], pending: all };
  const { db, dialect } = openDatabase(config.databaseUrl, config.pool, {
    serverTimeZone: config.schema === 'osticket',
  });
  try {
    const pending = await pendingMigrations(db, dialect, config.schema);
    return { applied: all.filter((name) => !pending.includes(name)), pending };
  } finally {
    await db.destroy();
  }
}
