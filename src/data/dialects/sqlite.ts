import { closeSync, fchmodSync, mkdirSync, openSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely } from 'kysely';
import { readThrough } from '../common/prepared-query.ts';
import { BusyRetrySqliteDialect } from './busy-retry-sqlite-dialect.ts';
import type { Dialect, OpenDatabase } from './dialect.ts';
import { SqliteGroupCommit } from './sqlite-group-commit.ts';
import { setPageCache } from './sqlite-page-cache.ts';
import {
  makeStatementCache,
  openReadConnection,
  type ReadConnection,
} from './sqlite-read-connection.ts';

/** What every SQLite database shares; writeTransaction is per database (see sqliteDialectFor). */
const sqliteDialect: Omit<Dialect, 'writeTransaction'> = {
  name: 'sqlite',
  supportsReturning: true,
  isUniqueViolation(error, { table }) {
    // SQLite names the columns ("UNIQUE constraint failed: user_emails.address_key"), not the index.
    return (
      error instanceof SQLite.SqliteError &&
      (error.code === 'SQLITE_CONSTRAINT_UNIQUE' ||
        error.code === 'SQLITE_CONSTRAINT_PRIMARYKEY') &&
      error.message.includes(`${table}.`)
    );
  },
  isConnectionError(error) {
    return (
      error instanceof SQLite.SqliteError && /^SQLITE_(CANTOPEN|IOERR|BUSY|LOCKED)/.test(error.code)
    );
  },
  isUnavailableError(error) {
    // SQLITE_FULL: the disk (or the file system's quota) is full; writes resume when space returns.
    return (
      sqliteDialect.isConnectionError(error) ||
      (error instanceof SQLite.SqliteError && /^SQLITE_FULL/.test(error.code))
    );
  },
  async withExclusiveLock(db, _name, fn) {
    // Transactions begin IMMEDIATE: holding one is holding the database's only write lock.
    return db.transaction().execute(fn);
  },
  async syncIdSequence() {},
  async currentSchema() {
    return undefined;
  },
};

/** The dialect of one open database: its writes are group-committed on its connection. */
function sqliteDialectFor(database: SQLite.Database): {
  dialect: Dialect;
  writesWaiting: () => number;
} {
  const groupCommit = new SqliteGroupCommit(database);
  return {
    dialect: { ...sqliteDialect, writeTransaction: (db, fn) => groupCommit.run(db, fn) },
    writesWaiting: () => groupCommit.waiting,
  };
}

/**
 * Creates the data file 0600 before SQLite does (SQLite would make it 0644 less the umask); SQLite
 * gives its -wal and -shm files the data file's mode. An existing file keeps the mode its admin
 * chose (decision 327).
 */
function createPrivately(path: string): void {
  let fd: number;
  try {
    fd = openSync(path, 'wx', 0o600);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return;
    throw error;
  }
  try {
    // The umask cannot widen 0600, but one that takes the owner's bits would leave it unusable.
    fchmodSync(fd, 0o600);
  } finally {
    closeSync(fd);
  }
}

/**
 * Opens a SQLite file in WAL mode. `synchronous=FULL` makes every acknowledged commit survive a
 * power loss, not only a process crash. Another process's write lock is waited for without
 * blocking the event loop, up to `busyBudgetMs` (DESKGATE_DB_QUERY_TIMEOUT), then SQLITE_BUSY
 * (503): see BusyRetrySqliteDialect and docs/decisions/040-bounded-database-waits.md.
 * Concurrent write transactions share one commit: see SqliteGroupCommit.
 */
export function openSqlite<DB>(path: string, busyBudgetMs: number): OpenDatabase<DB> {
  if (path !== ':memory:') {
    // Resolved first: in a working directory that was deleted, a relative recursive mkdir loops
    // forever (Node's, synchronously); resolving throws ENOENT instead.
    mkdirSync(resolve(dirname(path)), { recursive: true });
    createPrivately(path);
  }
  const database = new SQLite(path);
  // Opening may wait (blocking) for a moment; every later wait is asynchronous.
  database.pragma('busy_timeout = 5000');
  database.pragma('journal_mode = WAL');
  database.pragma('synchronous = FULL');
  database.pragma('foreign_keys = ON');
  database.pragma('busy_timeout = 0');
  setPageCache(database);
  // Closed with the database: the read connection below, opened once the database exists.
  let reads: ReadConnection | undefined;
  const prepareWrite = makeStatementCache(database);
  const dialect = new BusyRetrySqliteDialect({
    database,
    statements: {
      prepare: (text) => {
        // Reads after this statement must see what it writes (sqlite-read-connection.ts).
        reads?.endSnapshot();
        return prepareWrite(text);
      },
      close: () => {
        reads?.close();
        database.close();
      },
    },
    busyBudgetMs,
  });
  const db = new Kysely<DB>({ dialect });
  // Reads that can be answered at once go to a connection of their own; not for :memory:, where
  // a second connection would be another database. What it cannot answer at once goes through db.
  if (path !== ':memory:') {
    reads = openReadConnection(path, readThrough(db));
  }
  return { db, ...sqliteDialectFor(database), runRead: reads?.run };
}
