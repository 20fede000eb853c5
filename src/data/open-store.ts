import { makeDeskgateStore } from './deskgate/deskgate-store.ts';
import type { Dialect } from './dialects/dialect.ts';
import { migrateToLatest, pendingMigrations } from './migrations/migrate.ts';
import { openDatabase } from './open-database.ts';
import type { Database } from './schema.ts';
import type { Store } from './store.ts';

export interface OpenedStore {
  store: Store;
  dialect: Dialect;
  /** Migrations applied by this call. */
  applied: string[];
}

export class SchemaOutOfDateError extends Error {
  override name = 'SchemaOutOfDateError';
}

/**
 * Opens the database and its Store. With `migrate`, applies pending migrations first; without,
 * refuses a database whose schema is behind this version.
 */
export async function openStore(
  databaseUrl: string,
  options: { migrate: boolean },
): Promise<OpenedStore> {
  const { db, dialect } = openDatabase<Database>(databaseUrl);
  try {
    let applied: string[] = [];
    if (options.migrate) {
      applied = await migrateToLatest(db, dialect);
    } else {
      const pending = await pendingMigrations(db, dialect);
      if (pending.length > 0) {
        throw new SchemaOutOfDateError(
          `the database schema is behind (pending: ${pending.join(', ')}); run \`deskgate migrate\` or set DESKGATE_MIGRATE=true`,
        );
      }
    }
    return { store: makeDeskgateStore(db, dialect), dialect, applied };
  } catch (error) {
    await db.destroy();
    throw error;
  }
}
