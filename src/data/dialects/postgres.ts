import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import { type Dialect, isNetworkError, type OpenDatabase, type PoolOptions } from './dialect.ts';

// COUNT(*) and bigint columns arrive as strings by default; every value deskgate keeps fits a double.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number(value));

const postgresDialect: Dialect = {
  name: 'postgres',
  supportsReturning: true,
  isUniqueViolation(error, { index }) {
    const e = error as { code?: unknown; constraint?: unknown } | null;
    return e?.code === '23505' && e.constraint === index;
  },
  isConnectionError(error) {
    if (isNetworkError(error)) return true;
    const e = error as { code?: unknown; message?: unknown } | null;
    // Class 08: connection exception; 57P0x: server shutting down or unavailable.
    if (typeof e?.code === 'string' && /^(08|57P0)/.test(e.code)) return true;
    return (
      typeof e?.message === 'string' &&
      /Connection terminated|timeout exceeded when trying to connect/.test(e.message)
    );
  },
  async currentSchema(db) {
    const { rows } = await sql<{ schema: string }>`select current_schema() as schema`.execute(db);
    return rows[0]?.schema;
  },
  async syncIdSequence(db, table) {
    await sql`select setval(pg_get_serial_sequence(${table}, 'id'), greatest((select max(id) from ${sql.table(table)}), 1))`.execute(
      db,
    );
  },
};

/** A pool of `pool.max` connections; connecting gives up after `pool.connectTimeoutMs`. */
export function openPostgres<DB>(url: string, pool: PoolOptions): OpenDatabase<DB> {
  const instance = new pg.Pool({
    connectionString: url,
    max: pool.max,
    connectionTimeoutMillis: pool.connectTimeoutMs,
    idleTimeoutMillis: 30_000,
    query_timeout: pool.queryTimeoutMs,
  });
  // An idle client that loses its server emits here; without a listener the process would crash.
  instance.on('error', () => {});
  return {
    db: new Kysely<DB>({ dialect: new PostgresDialect({ pool: instance }) }),
    dialect: postgresDialect,
    poolStats: () => ({
      total: instance.totalCount,
      idle: instance.idleCount,
      waiting: instance.waitingCount,
    }),
  };
}
