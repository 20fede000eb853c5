import type { Kysely } from 'kysely';
import { makeReader, type RunRead } from './common/prepared-query.ts';
import {
  DatabaseRefusedError,
  describeRefusal,
  NotADeskgateDatabaseError,
} from './database-open-error.ts';
import { describeStartError } from './describe-start-error.ts';
import { makeDeskgateStore } from './deskgate/deskgate-store.ts';
import type { Dialect, PoolOptions, PoolStats } from './dialects/dialect.ts';
import {
  assertNoUnknownMigrations,
  type Layout,
  MIGRATIONS,
  migrateToLatest,
  pendingMigrations,
} from './migrations/migrate.ts';
import { DEFAULT_POOL, openDatabase, redactUrl } from './open-database.ts';
import { assertOsticketTables } from './osticket/assert-osticket-tables.ts';
import { assertTablesReadable } from './osticket/assert-tables-readable.ts';
import { makeOsticketStore } from './osticket/osticket-store.ts';
import type { OsticketDatabase } from './osticket/schema.ts';
import { TablePrefixPlugin } from './osticket/table-prefix-plugin.ts';
import type { Database } from './schema.ts';
import { DatabaseUnreachableError, type Store, StoreError } from './store.ts';

/** Where the data is: the database and its layout, as configured (Config has all of these). */
export interface StoreLocation {
  databaseUrl: string;
  /** `deskgate` (its own schema, the default) or `osticket` (an existing osTicket database, MySQL only). */
  schema?: Layout;
  /** osTicket's table prefix, default `ost_`. */
  tablePrefix?: string;
  /** osTicket mode: also log each successful call in osTicket's `syslog`. */
  osticketSyslog?: boolean;
  pool?: PoolOptions;
}

export interface OpenedStore {
  store: Store;
  dialect: Dialect;
  /** Migrations applied by this call. */
  applied: string[];
  /** The connection pool's state, for metrics (PostgreSQL, MySQL). */
  poolStats: (() => PoolStats) | undefined;
}

export class SchemaOutOfDateError extends StoreError {
  override name = 'SchemaOutOfDateError';
}

/** A database that cannot be reached or refuses a statement at start is a one-line problem, not a crash. */
function explain(error: unknown, dialect: Dialect, databaseUrl: string): unknown {
  const refusal = describeRefusal(error);
  if (refusal) return new DatabaseRefusedError(databaseUrl, refusal, { cause: error });
  if (!dialect.isConnectionError(error)) return describeStartError(error);
  const reason =
    (error as Error).message || (error as { code?: string }).code || 'connection failed';
  return new DatabaseUnreachableError(
    `cannot reach the database at ${redactUrl(databaseUrl)}: ${reason}`,
    {
      cause: error,
    },
  );
}

async function prepare<DB>(
  db: Kysely<DB>,
  dialect: Dialect,
  layout: Layout,
  migrate: boolean,
  databaseUrl: string,
): Promise<string[]> {
  await assertNoUnknownMigrations(db, dialect, layout);
  if (migrate) return migrateToLatest(db, dialect, layout);
  const pending = await pendingMigrations(db, dialect, layout);
  if (pending.length === MIGRATIONS[layout].length)
    throw new NotADeskgateDatabaseError(databaseUrl, "deskgate's tables are not there");
  if (pending.length > 0) {
    throw new SchemaOutOfDateError(
      `the database schema is behind (pending: ${pending.join(', ')}); run \`deskgate migrate\` or set DESKGATE_MIGRATE=true`,
    );
  }
  return [];
}

/** Opens one layout's database, migrates or checks it, builds its Store; closes it on failure. */
async function openLayout<DB>(
  location: StoreLocation,
  options: { migrate: boolean },
  layout: Layout,
  build: (db: Kysely<DB>, dialect: Dialect, runRead: RunRead | undefined) => Promise<Store>,
): Promise<OpenedStore> {
  const { db, dialect, poolStats, runRead } = openDatabase<DB>(
    location.databaseUrl,
    location.pool ?? DEFAULT_POOL,
    // osTicket writes and reads its DATETIMEs in the server's time zone: so must deskgate.
    { serverTimeZone: layout === 'osticket' },
  );
  try {
    const applied = await prepare(db, dialect, layout, options.migrate, location.databaseUrl);
    return { store: await build(db, dialect, runRead), dialect, applied, poolStats };
  } catch (error) {
    await db.destroy();
    throw explain(error, dialect, location.databaseUrl);
  }
}

/** Opens the database, brings deskgate's tables up to date (or checks them), and returns its Store. */
export async function openStore(
  location: StoreLocation,
  options: { migrate: boolean },
): Promise<OpenedStore> {
  if (location.schema === 'osticket') {
    const prefix = location.tablePrefix ?? 'ost_';
    return openLayout<OsticketDatabase>(location, options, 'osticket', async (db, dialect) => {
      await assertOsticketTables(db, prefix);
      const prefixed = db.withPlugin(new TablePrefixPlugin(prefix));
      const syslog = location.osticketSyslog === true;
      // A column osTicket no longer has, or a SELECT grant missing, stops the start here.
      await assertTablesReadable(prefixed, { syslog });
      return makeOsticketStore(prefixed, dialect, prefix, { syslog });
    });
  }
  return openLayout<Database>(location, options, 'deskgate', async (db, dialect, runRead) =>
    makeDeskgateStore(db, dialect, makeReader(db, runRead)),
  );
}
