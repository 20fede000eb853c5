import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, type SqliteDatabase, SqliteDialect } from 'kysely';
import type { Dialect, OpenDatabase } from './dialect.ts';

const sqliteDialect: Dialect = {
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
  async syncIdSequence() {},
  async currentSchema() {
    return undefined;
  },
};

/**
 * Opens a SQLite file in WAL mode. `synchronous=FULL` makes every acknowledged commit survive a
 * power loss, not only a process crash; the busy timeout lets several worker processes share it.
 */
export function openSqlite<DB>(path: string): OpenDatabase<DB> {
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
  const database = new SQLite(path);
  database.pragma('journal_mode = WAL');
  database.pragma('synchronous = FULL');
  database.pragma('foreign_keys = ON');
  database.pragma('busy_timeout = 5000');
  return {
    db: new Kysely<DB>({ dialect: new SqliteDialect({ database: withStatementCache(database) }) }),
    dialect: sqliteDialect,
  };
}

/** Distinct SQL texts kept prepared; deskgate issues a few dozen, so this is never reached in practice. */
const STATEMENT_CACHE_LIMIT = 500;

/**
 * Kysely prepares every query afresh; preparing costs more than running deskgate's small
 * queries. A better-sqlite3 statement can be reused, so keep one per SQL text.
 */
function withStatementCache(database: SQLite.Database): SqliteDatabase {
  const statements = new Map<string, SQLite.Statement>();
  return {
    close: () => database.close(),
    prepare(text) {
      let statement = statements.get(text);
      if (!statement) {
        if (statements.size >= STATEMENT_CACHE_LIMIT) statements.clear();
        statement = database.prepare(text);
        statements.set(text, statement);
      }
      return statement;
    },
  };
}
