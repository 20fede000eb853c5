import { CompiledQuery, Kysely, MysqlDialect } from 'kysely';
import { createPool } from 'mysql2';
import {
  type Dialect,
  isNetworkError,
  type OpenDatabase,
  type PoolOptions,
  type PoolStats,
} from './dialect.ts';

const mysqlDialect: Dialect = {
  name: 'mysql',
  supportsReturning: false,
  isUniqueViolation(error, { index }) {
    const e = error as { code?: unknown; message?: unknown } | null;
    // "Duplicate entry 'x' for key 'user_emails_address_key_unique'" (MySQL 8 prefixes the table).
    return (
      e?.code === 'ER_DUP_ENTRY' && typeof e.message === 'string' && e.message.includes(`${index}'`)
    );
  },
  isConnectionError(error) {
    if (isNetworkError(error)) return true;
    const code = (error as { code?: unknown } | null)?.code;
    return (
      typeof code === 'string' &&
      /^(PROTOCOL_CONNECTION_LOST|PROTOCOL_SEQUENCE_TIMEOUT|ER_CON_COUNT_ERROR|ER_SERVER_SHUTDOWN|ER_ACCESS_DENIED_ERROR)$/.test(
        code,
      )
    );
  },
  async syncIdSequence() {},
  async currentSchema() {
    return undefined;
  },
};

export interface MysqlOptions {
  /**
   * Put each session in the server's SYSTEM time zone instead of UTC, as osTicket's own
   * db_connect does, so that NOW() is the clock osTicket writes with (osTicket mode). deskgate's
   * own schema keeps UTC text.
   */
  serverTimeZone?: boolean;
}

/** A pool of `pool.max` connections; DATETIME values come back as the text the database holds. */
export function openMysql<DB>(
  url: string,
  pool: PoolOptions,
  { serverTimeZone = false }: MysqlOptions = {},
): OpenDatabase<DB> {
  const normalized = url.replace(/^mariadb:/, 'mysql:');
  const instance = createPool({
    uri: normalized,
    connectionLimit: pool.max,
    connectTimeout: pool.connectTimeoutMs,
    supportBigNumbers: true,
    bigNumberStrings: false,
    dateStrings: true,
    charset: 'utf8mb4',
  });
  const dialect = new MysqlDialect({
    pool: instance,
    // TIMESTAMP columns convert through the session zone; deskgate's own timestamps are UTC text.
    onCreateConnection: async (connection) => {
      const zone = serverTimeZone ? "'SYSTEM'" : "'+00:00'";
      await connection.executeQuery(CompiledQuery.raw(`SET time_zone = ${zone}`));
    },
  });
  return {
    db: new Kysely<DB>({ dialect }),
    dialect: mysqlDialect,
    poolStats: () => mysqlPoolStats(instance),
  };
}

/** mysql2 keeps its pool's state in fields it does not type. */
function mysqlPoolStats(pool: unknown): PoolStats {
  const p = pool as {
    _allConnections?: { length: number };
    _freeConnections?: { length: number };
    _connectionQueue?: { length: number };
  };
  return {
    total: p._allConnections?.length ?? 0,
    idle: p._freeConnections?.length ?? 0,
    waiting: p._connectionQueue?.length ?? 0,
  };
}
