import { setTimeout as sleep } from 'node:timers/promises';
import type SQLite from 'better-sqlite3';
import {
  CompiledQuery,
  type DatabaseConnection,
  type DatabaseIntrospector,
  type DialectAdapter,
  type Driver,
  type Kysely,
  type Dialect as KyselyDialect,
  type QueryCompiler,
  type QueryResult,
  SqliteAdapter,
  type SqliteDatabase,
  SqliteDriver,
  SqliteIntrospector,
  SqliteQueryCompiler,
} from 'kysely';

export interface BusyRetrySqliteConfig {
  /** The open better-sqlite3 database, with its busy timeout at 0. */
  database: SQLite.Database;
  /** What Kysely prepares statements through (e.g. a statement cache over `database`). */
  statements: SqliteDatabase;
  /** How long a statement may wait for another process's write lock before it fails. */
  busyBudgetMs: number;
}

function isBusy(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === 'SQLITE_BUSY' || code === 'SQLITE_BUSY_SNAPSHOT';
}

/** One holder at a time of the single connection; waiters queue in order. */
class Mutex {
  #tail: Promise<void> = Promise.resolve();
  #release: (() => void) | undefined;
  async lock(): Promise<void> {
    const previous = this.#tail;
    let release!: () => void;
    this.#tail = new Promise((resolve) => {
      release = resolve;
    });
    await previous;
    this.#release = release;
  }
  unlock(): void {
    const release = this.#release;
    this.#release = undefined;
    release?.();
  }
}

/**
 * better-sqlite3 is synchronous: with a busy timeout, a statement waiting for another process's
 * write lock blocks the whole event loop. Here the busy timeout is 0, write transactions begin
 * IMMEDIATE (they take the write lock at once or fail at once, before doing any work), and a
 * statement refused with SQLITE_BUSY is retried after an asynchronous sleep, with the connection
 * handed to other callers meanwhile, until `busyBudgetMs` is spent; then SQLITE_BUSY goes up
 * (503). A transaction SQLite has already rolled back itself (SQLITE_FULL, SQLITE_IOERR) is not
 * rolled back again, so the caller sees the real cause.
 */
class BusyRetrySqliteDriver implements Driver {
  readonly #config: BusyRetrySqliteConfig;
  readonly #inner: SqliteDriver;
  readonly #mutex = new Mutex();
  #connection: DatabaseConnection | undefined;

  constructor(config: BusyRetrySqliteConfig) {
    this.#config = config;
    this.#inner = new SqliteDriver({ database: config.statements });
  }

  async init(): Promise<void> {
    await this.#inner.init();
    const raw = await this.#inner.acquireConnection();
    this.#connection = {
      executeQuery: <R>(query: CompiledQuery) =>
        this.#config.database.inTransaction
          ? raw.executeQuery<R>(query)
          : this.#retryWhileBusy(() => raw.executeQuery<R>(query)),
      streamQuery: <R>(query: CompiledQuery, chunkSize: number) =>
        raw.streamQuery<R>(query, chunkSize),
    };
  }

  /** Runs `attempt` until it is not refused for the write lock, sleeping without the connection. */
  async #retryWhileBusy<R>(attempt: () => Promise<QueryResult<R>>): Promise<QueryResult<R>> {
    const deadline = performance.now() + this.#config.busyBudgetMs;
    let pause = 2;
    for (;;) {
      try {
        return await attempt();
      } catch (error) {
        if (!isBusy(error) || performance.now() + pause > deadline) throw error;
      }
      this.#mutex.unlock();
      await sleep(pause);
      await this.#mutex.lock();
      pause = Math.min(pause * 2, 50);
    }
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    await this.#mutex.lock();
    return this.#connection as DatabaseConnection;
  }

  async releaseConnection(): Promise<void> {
    this.#mutex.unlock();
  }

  async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('begin immediate'));
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('commit'));
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    if (this.#config.database.inTransaction)
      await connection.executeQuery(CompiledQuery.raw('rollback'));
  }

  savepoint: Driver['savepoint'] = (connection, name, compile) =>
    this.#inner.savepoint(connection, name, compile);
  rollbackToSavepoint: Driver['rollbackToSavepoint'] = (connection, name, compile) =>
    this.#inner.rollbackToSavepoint(connection, name, compile);
  releaseSavepoint: Driver['releaseSavepoint'] = (connection, name, compile) =>
    this.#inner.releaseSavepoint(connection, name, compile);

  async destroy(): Promise<void> {
    await this.#inner.destroy();
  }
}

/**
 * Kysely's SQLite adapter, told that the driver serialises access to the connection itself, and
 * that DDL is transactional (it is in SQLite): the migrator then runs in one IMMEDIATE
 * transaction, which serialises processes migrating one file at once (Kysely's SQLite migration
 * lock assumes a single process).
 */
class SelfSerialisingSqliteAdapter extends SqliteAdapter {
  override get supportsMultipleConnections(): boolean {
    return true;
  }
  override get supportsTransactionalDdl(): boolean {
    return true;
  }
}

/** Kysely's SQLite dialect with a driver that waits for other processes' locks asynchronously. */
export class BusyRetrySqliteDialect implements KyselyDialect {
  readonly #config: BusyRetrySqliteConfig;
  constructor(config: BusyRetrySqliteConfig) {
    this.#config = config;
  }
  createDriver(): Driver {
    return new BusyRetrySqliteDriver(this.#config);
  }
  createQueryCompiler(): QueryCompiler {
    return new SqliteQueryCompiler();
  }
  createAdapter(): DialectAdapter {
    return new SelfSerialisingSqliteAdapter();
  }
  createIntrospector(db: Kysely<unknown>): DatabaseIntrospector {
    return new SqliteIntrospector(db);
  }
}
