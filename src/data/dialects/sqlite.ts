import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
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
    db: new Kysely<DB>({ dialect: new SqliteDialect({ database }) }),
    dialect: sqliteDialect,
  };
}
