import type { Kysely, Transaction } from 'kysely';
import type { RunRead } from '../common/prepared-query.ts';
import type { DialectName } from '../store.ts';

/** A unique index, named so that every database's error can be matched to it. */
export interface UniqueIndex {
  table: string;
  index: string;
}

/** What differs between databases, kept in one small place per database. */
export interface Dialect {
  readonly name: DialectName;
  /** True when `error` is a violation of `unique`. */
  isUniqueViolation(error: unknown, unique: UniqueIndex): boolean;
  /** True when `error` means the database cannot be reached (as opposed to a bad query). */
  isConnectionError(error: unknown): boolean;
  /**
   * True when `error` means the database cannot answer now but may shortly: unreachable, a
   * connection lost mid-query, a query or lock wait over DESKGATE_DB_QUERY_TIMEOUT, a full disk.
   * Callers get 503 `database_unavailable` for these and 500 for everything else.
   */
  isUnavailableError(error: unknown): boolean;
  /**
   * Runs `fn` while holding a database-wide lock named `name`, so that instances sharing the
   * database do it one at a time (PostgreSQL advisory lock, MySQL GET_LOCK, SQLite's write lock).
   */
  withExclusiveLock<DB, T>(
    db: Kysely<DB>,
    name: string,
    fn: (db: Kysely<DB>) => Promise<T>,
  ): Promise<T>;
  /**
   * Runs `fn` as a write transaction and settles once that has committed (or failed). PostgreSQL
   * and MySQL: one transaction per call (they have pools, and the server groups commits itself).
   * SQLite: calls waiting for the one connection share one transaction and one fsync, each in a
   * savepoint of its own (SqliteGroupCommit): `fn` failing fails that call alone, the shared
   * transaction failing fails every call in it.
   */
  writeTransaction<DB, T>(db: Kysely<DB>, fn: (trx: Transaction<DB>) => Promise<T>): Promise<T>;
  /** Whether INSERT … RETURNING works (SQLite, PostgreSQL; not MySQL). */
  readonly supportsReturning: boolean;
  /** Brings an id sequence past ids inserted explicitly (PostgreSQL's serial does not follow them). */
  syncIdSequence<DB>(db: Kysely<DB>, table: string): Promise<void>;
  /**
   * The schema deskgate's tables go into, where the database has schemas (PostgreSQL's
   * search_path). The migrator needs it: it otherwise sees same-named tables in other schemas.
   */
  currentSchema<DB>(db: Kysely<DB>): Promise<string | undefined>;
}

/** Connection pool settings for PostgreSQL and MySQL (SQLite has one connection per process). */
export interface PoolOptions {
  /** Most connections open at once. */
  max: number;
  /** Give up connecting after this many ms (the request then gets 503). */
  connectTimeoutMs: number;
  /**
   * Give up on one query after this many ms (the request then gets 503): enforced by the
   * server where it can (PostgreSQL statement_timeout, MariaDB max_statement_time, InnoDB lock
   * waits, SQLite's wait for the write lock) and by the client a second later for a server that
   * stops answering altogether.
   */
  queryTimeoutMs: number;
}

/** Connections of a pool right now. */
export interface PoolStats {
  total: number;
  idle: number;
  waiting: number;
}

export interface OpenDatabase<DB> {
  db: Kysely<DB>;
  dialect: Dialect;
  /** The connection pool's state, for metrics; absent where there is no pool (SQLite). */
  poolStats?: () => PoolStats;
  /** SQLite: the writes waiting for the database's write lock, for metrics. */
  writesWaiting?: () => number;
  /**
   * Where prepared reads run when the database has a faster way than Kysely's executor: SQLite's
   * read connection. Undefined: they run through `db`.
   */
  runRead?: RunRead;
}

const NETWORK_ERRORS = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EPIPE',
]);

/** Socket-level failures every network driver reports with a Node error code. */
export function isNetworkError(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && NETWORK_ERRORS.has(code);
}

/** What the driver is given beyond the server's own bound, so the server answers first when it can. */
export const CLIENT_TIMEOUT_GRACE_MS = 1_000;

/** The error's `code`, or undefined. */
export function errorCode(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

/** The error's `message`, or ''. */
export function errorMessage(error: unknown): string {
  const message = (error as { message?: unknown } | null)?.message;
  return typeof message === 'string' ? message : '';
}

/** Whether a driver error's code matches `pattern` (an error without a code: no). */
export function codeMatches(error: unknown, pattern: RegExp): boolean {
  return pattern.test(errorCode(error) ?? '');
}

/** Whether a driver error's message matches `pattern`. */
export function messageMatches(error: unknown, pattern: RegExp): boolean {
  return pattern.test(errorMessage(error));
}
