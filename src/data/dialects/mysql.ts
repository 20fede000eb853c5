import { createRequire } from 'node:module';
import {
  CompiledQuery,
  type DatabaseConnection,
  Kysely,
  MysqlDialect,
  type MysqlPool,
  type MysqlPoolConnection,
  sql,
} from 'kysely';
import type { Pool, PoolConnection } from 'mysql2';
import {
  CLIENT_TIMEOUT_GRACE_MS,
  codeMatches,
  type Dialect,
  errorCode,
  isNetworkError,
  messageMatches,
  type OpenDatabase,
  type PoolOptions,
  type PoolStats,
} from './dialect.ts';
import { watchForClientGone } from './request-signal.ts';

/** mysql2's codes for a connection that is gone or a server that stopped answering. */
const CONNECTION_CODES =
  /^(PROTOCOL_CONNECTION_LOST|PROTOCOL_SEQUENCE_TIMEOUT|ER_CON_COUNT_ERROR|ER_SERVER_SHUTDOWN|ER_ACCESS_DENIED_ERROR)$/;

/**
 * Server errors that mean "not now": lock wait timeout (1205), deadlock (1213), statement
 * interrupted (1317), connection killed (1927), MariaDB max_statement_time (1969), MySQL
 * max_execution_time (3024), disk or table full (1021, 1114), too many connections (1040),
 * shutdown in progress (1053).
 */
const UNAVAILABLE_ERRNOS = new Set([1205, 1213, 1317, 1927, 1969, 3024, 1021, 1114, 1040, 1053]);

/** mysql2's messages for a pooled connection that died between queries. */
const LOST_CONNECTION =
  /Can't add new command when connection is in closed state|Pool is closed|Connection lost/;

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
    return isNetworkError(error) || codeMatches(error, CONNECTION_CODES);
  },
  isUnavailableError(error) {
    if (mysqlDialect.isConnectionError(error)) return true;
    const errno = (error as { errno?: unknown } | null)?.errno;
    if (typeof errno === 'number' && UNAVAILABLE_ERRNOS.has(errno)) return true;
    return messageMatches(error, LOST_CONNECTION);
  },
  writeTransaction(db, fn) {
    return db.transaction().execute(fn);
  },
  async withExclusiveLock(db, name, fn) {
    // GET_LOCK belongs to the session, so everything runs on one connection; the server
    // releases it if that connection dies.
    return db.connection().execute(async (connection) => {
      const seconds = 30;
      const { rows } = await sql<{
        granted: number | null;
      }>`select get_lock(${name}, ${seconds}) as granted`.execute(connection);
      if (Number(rows[0]?.granted) !== 1) {
        throw Object.assign(new Error(`could not take the lock ${name} within ${seconds} s`), {
          errno: 1205,
        });
      }
      try {
        return await fn(connection);
      } finally {
        await sql`select release_lock(${name})`.execute(connection);
      }
    });
  },
  async syncIdSequence() {},
  async currentSchema() {
    return undefined;
  },
};

/**
 * Hands Kysely connections whose queries carry mysql2's client-side timeout. That timeout only
 * stops waiting: the statement is still in progress on the connection, so a connection that
 * timed out is destroyed (the server ends the session) instead of going back to the pool.
 */
/**
 * Ends the statement `text` on the session `threadId`, from another pooled connection, if that
 * session still runs it (the client of its request went away; decision 334): MariaDB by the
 * statement's own id (`KILL QUERY ID`), MySQL, which has none, by the session's.
 */
async function killQuery(pool: Pool, threadId: number, text: string): Promise<void> {
  const placeholder = text.indexOf('?');
  const head = text.slice(0, Math.min(placeholder === -1 ? text.length : placeholder, 256));
  const [rows] = await pool
    .promise()
    .query(
      `select * from information_schema.processlist where id = ? and command = 'Query' and left(info, ?) = ?`,
      [threadId, head.length, head],
    );
  const [found] = rows as { QUERY_ID?: number | string }[];
  if (!found) return;
  await pool
    .promise()
    .query(
      found.QUERY_ID === undefined
        ? `kill query ${Number(threadId)}`
        : `kill query id ${Number(found.QUERY_ID)}`,
    );
}

function withQueryTimeout(pool: Pool, timeoutMs: number): MysqlPool {
  const wrappers = new WeakMap<PoolConnection, MysqlPoolConnection>();
  function wrap(connection: PoolConnection): MysqlPoolConnection {
    const known = wrappers.get(connection);
    if (known) return known;
    // A connection whose statement a kill went out for is destroyed, not pooled: the kill can
    // then reach only this call's statement (or none), never the next call's (decision 334).
    // Holding it back until the kill ended deadlocked the pool when every connection waited for
    // a kill that itself waited for a free connection.
    let killing: Promise<unknown> | undefined;
    const wrapper: MysqlPoolConnection = {
      config: connection.config,
      get threadId() {
        return connection.threadId;
      },
      connect: (callback) => connection.connect(callback),
      destroy: () => connection.destroy(),
      release: () => {
        if (killing) connection.destroy();
        else connection.release();
        killing = undefined;
      },
      query(text, parameters, callback) {
        const threadId = connection.threadId;
        const ended = watchForClientGone(text, () => {
          killing = killQuery(pool, threadId, text).catch(() => {});
          return killing;
        });
        return connection.query(
          { sql: text, values: parameters, timeout: timeoutMs },
          (error: unknown, result: unknown) => {
            ended();
            if (errorCode(error) === 'PROTOCOL_SEQUENCE_TIMEOUT') connection.destroy();
            callback?.(error, result as never);
          },
        ) as unknown as ReturnType<MysqlPoolConnection['query']>;
      },
    };
    wrappers.set(connection, wrapper);
    return wrapper;
  }
  return {
    getConnection: (callback) =>
      pool.getConnection((error, connection) =>
        callback(error, error ? (connection as never) : wrap(connection)),
      ),
    end: (callback) => pool.end(callback),
  };
}

/**
 * The server-side bounds of DESKGATE_DB_QUERY_TIMEOUT for one session: InnoDB lock waits (whole
 * seconds) and, on MariaDB, every statement (max_statement_time); MySQL bounds only SELECTs
 * (max_execution_time). The client-side timeout stays the backstop for a silent server.
 */
async function setSessionTimeouts(
  connection: DatabaseConnection,
  timeoutMs: number,
  timeZone: string,
) {
  await connection.executeQuery(
    CompiledQuery.raw(
      `SET time_zone = ${timeZone}, innodb_lock_wait_timeout = ${Math.max(1, Math.ceil(timeoutMs / 1000))}`,
    ),
  );
  try {
    await connection.executeQuery(
      CompiledQuery.raw(`SET max_statement_time = ${(timeoutMs / 1000).toFixed(3)}`),
    );
  } catch (error) {
    // ER_UNKNOWN_SYSTEM_VARIABLE: MySQL, not MariaDB.
    if ((error as { errno?: unknown }).errno !== 1193) throw error;
    await connection.executeQuery(
      CompiledQuery.raw(`SET max_execution_time = ${Math.round(timeoutMs)}`),
    );
  }
}

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
  // Loaded on first use: a SQLite or PostgreSQL process (every CLI call) never pays for mysql2.
  const { createPool } = createRequire(import.meta.url)('mysql2') as typeof import('mysql2');
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
    pool: withQueryTimeout(instance, pool.queryTimeoutMs + CLIENT_TIMEOUT_GRACE_MS),
    // TIMESTAMP columns (osTicket's user_account.registered) convert through the session zone.
    onCreateConnection: (connection) =>
      setSessionTimeouts(connection, pool.queryTimeoutMs, serverTimeZone ? "'SYSTEM'" : "'+00:00'"),
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
