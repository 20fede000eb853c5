import { type Kysely, sql } from 'kysely';
import { createAdminKeyTable } from './api-keys/admin-key-table.ts';
import { makeReader, type RunRead } from './common/prepared-query.ts';
import {
  DatabaseRefusedError,
  describeRefusal,
  NotADeskgateDatabaseError,
} from './database-open-error.ts';
import { describeStartError } from './describe-start-error.ts';
import type { Dialect, PoolOptions, PoolStats } from './dialects/dialect.ts';
import type { AnyEntity, DataAccess, DataHandle, Entity } from './entity.ts';
import { migrateToLatest, pendingMigrations } from './migrations/migrate.ts';
import { type Layout, MIGRATIONS } from './migrations/migrations.ts';
import { DEFAULT_POOL, openDatabase, redactUrl } from './open-database.ts';
import { assertGrants } from './osticket/assert-grants.ts';
import { assertOsticketTables, assertTablesReadable } from './osticket/assert-osticket-tables.ts';
import { missingIndexMessage, missingReadIndexes } from './osticket/osticket-indexes.ts';
import { collectRequirements, tableRequirements } from './osticket/osticket-requirements.ts';
import { TablePrefixPlugin } from './osticket/table-prefix-plugin.ts';
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
  /** osTicket mode: deskgate's own admin keys and the writes they allow (decision 270). */
  osticketAdminWrites?: boolean;
  pool?: PoolOptions;
}

export interface OpenOptions {
  /** Apply pending migrations (`serve` with DESKGATE_MIGRATE, `migrate`), or only check. */
  migrate: boolean;
  /**
   * The entities the store serves (the server's: src/server/service-entities.ts; a command's:
   * its `usingStore` call): in osTicket mode their tables, columns and grants are checked at
   * open and by `ping`; `data` refuses any other.
   */
  entities: readonly AnyEntity[];
}

export interface OpenedStore {
  store: Store;
  dialect: Dialect;
  /** Migrations applied by this call. */
  applied: string[];
  /** The connection pool's state, for metrics (PostgreSQL, MySQL). */
  poolStats: (() => PoolStats) | undefined;
  /** The writes waiting for the write lock, for metrics (SQLite). */
  writesWaiting: (() => number) | undefined;
}

export class SchemaOutOfDateError extends StoreError {
  override name = 'SchemaOutOfDateError';
}

/** A database that cannot be reached or refuses a statement at start is a one-line problem, not a crash. */
function explain(error: unknown, dialect: Dialect, databaseUrl: string): unknown {
  const refusal = describeRefusal(error);
  if (refusal) return new DatabaseRefusedError(databaseUrl, refusal, { cause: error });
  if (!dialect.isConnectionError(error)) return describeStartError(error, databaseUrl);
  const reason =
    (error as Error).message || (error as { code?: string }).code || 'connection failed';
  return new DatabaseUnreachableError(
    `cannot reach the database at ${redactUrl(databaseUrl)}: ${reason}`,
    {
      cause: error,
    },
  );
}

async function prepare(
  db: Kysely<object>,
  dialect: Dialect,
  layout: Layout,
  migrate: boolean,
  databaseUrl: string,
): Promise<string[]> {
  const pending = await pendingMigrations(db, dialect, layout);
  if (migrate) return pending.length > 0 ? migrateToLatest(db, dialect, layout) : [];
  if (pending.length === MIGRATIONS[layout].length)
    throw new NotADeskgateDatabaseError(databaseUrl, "deskgate's tables are not there");
  if (pending.length > 0) {
    throw new SchemaOutOfDateError(
      `the database schema is behind (pending: ${pending.join(', ')}); run \`deskgate migrate\` or set DESKGATE_MIGRATE=true`,
    );
  }
  return [];
}

/**
 * The Store over `handle`: each entity's data functions are built on first use, for this
 * layout, and kept for the life of the store.
 */
function makeStore(
  handle: DataHandle,
  entities: readonly AnyEntity[],
  ping: () => Promise<void>,
  advisories: () => Promise<string[]> = async () => [],
): Store {
  const declared = new Set(entities);
  const built = new Map<AnyEntity, unknown>();
  const data: DataAccess = <Api>(entity: Entity<Api>): Api => {
    if (built.has(entity)) return built.get(entity) as Api;
    if (!declared.has(entity)) {
      throw new Error(
        `entity ${entity.name} is not among the store's entities: name it in the operation's \`uses\` or the command's \`usingStore\` call`,
      );
    }
    const api = handle.layout === 'osticket' ? entity.osticket(handle) : entity.own(handle);
    built.set(entity, api);
    return api;
  };
  return {
    dialect: handle.dialect.name,
    data,
    ping,
    advisories,
    close: () => handle.db.destroy(),
  };
}

/** Opens one layout's database, migrates or checks it, builds its Store; closes it on failure. */
async function openLayout(
  location: StoreLocation,
  options: OpenOptions,
  layout: Layout,
  build: (db: Kysely<object>, dialect: Dialect, runRead: RunRead | undefined) => Promise<Store>,
): Promise<OpenedStore> {
  const { db, dialect, poolStats, writesWaiting, runRead } = openDatabase<object>(
    location.databaseUrl,
    location.pool ?? DEFAULT_POOL,
    // osTicket writes and reads its DATETIMEs in the server's time zone: so must deskgate.
    { serverTimeZone: layout === 'osticket' },
  );
  try {
    const applied = await prepare(db, dialect, layout, options.migrate, location.databaseUrl);
    const store = await build(db, dialect, runRead);
    return { store, dialect, applied, poolStats, writesWaiting };
  } catch (error) {
    await db.destroy();
    throw explain(error, dialect, location.databaseUrl);
  }
}

/** Opens the database, brings deskgate's tables up to date (or checks them), and returns its Store. */
export async function openStore(
  location: StoreLocation,
  options: OpenOptions,
): Promise<OpenedStore> {
  if (location.schema === 'osticket') {
    const prefix = location.tablePrefix ?? 'ost_';
    const requirements = tableRequirements(collectRequirements(options.entities));
    const own = new Set(requirements.filter((r) => r.own).map((r) => r.table));
    return openLayout(location, options, 'osticket', async (db, dialect) => {
      const syslog = location.osticketSyslog === true;
      const adminWrites = location.osticketAdminWrites === true;
      const optional = { syslog, adminWrites };
      if (adminWrites && options.migrate) await createAdminKeyTable(db, dialect.name);
      // Grants first: a table the user may not use is hidden from information_schema.
      await assertGrants(db, prefix, requirements, optional);
      await assertOsticketTables(db, prefix, requirements);
      const prefixed = db.withPlugin(new TablePrefixPlugin(prefix, own));
      const ping = async () => {
        await assertGrants(db, prefix, requirements, optional);
        await assertTablesReadable(prefixed, requirements, optional);
      };
      // A grant missing, or a column osTicket no longer has, stops the start here.
      await ping();
      const handle: DataHandle = {
        layout: 'osticket',
        db: prefixed,
        dialect,
        reader: makeReader(prefixed),
        prefix,
        syslog,
        adminWrites,
      };
      const advisories = async () =>
        (await missingReadIndexes(db, prefix)).map((state) => missingIndexMessage(prefix, state));
      return makeStore(handle, options.entities, ping, advisories);
    });
  }
  return openLayout(location, options, 'deskgate', async (db, dialect, runRead) => {
    const handle: DataHandle = { layout: 'own', db, dialect, reader: makeReader(db, runRead) };
    return makeStore(handle, options.entities, async () => {
      await sql`select 1`.execute(db);
    });
  });
}
