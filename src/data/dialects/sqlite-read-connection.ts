import SQLite from 'better-sqlite3';
import type { RunRead } from '../common/prepared-query.ts';
import { ReadResultCache } from './read-result-cache.ts';
import { setPageCache } from './sqlite-page-cache.ts';

/** Distinct SQL texts kept prepared; deskgate issues a few dozen, so this is never reached in practice. */
const STATEMENT_CACHE_LIMIT = 500;

/** better-sqlite3 statements kept by SQL text: preparing costs more than running deskgate's small queries. */
export function makeStatementCache(database: SQLite.Database): (text: string) => SQLite.Statement {
  const statements = new Map<string, SQLite.Statement>();
  return (text) => {
    let statement = statements.get(text);
    if (!statement) {
      if (statements.size >= STATEMENT_CACHE_LIMIT) statements.clear();
      statement = database.prepare(text);
      statements.set(text, statement);
    }
    return statement;
  };
}

/**
 * The longest a snapshot is shared: a turn normally ends well before, but one that began outside
 * the I/O phase (in a timer or the check phase) would last through the next poll phase.
 */
const SNAPSHOT_MAX_AGE_MS = 1;

export interface ReadConnection {
  run: RunRead;
  /** Ends the reads' shared snapshot now; the write connection calls it before each statement. */
  endSnapshot(): void;
  close(): void;
}

function isBusy(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && code.startsWith('SQLITE_BUSY');
}

/**
 * A second connection to the same file, for prepared reads only (`query_only`). In WAL mode it
 * reads the last committed state without waiting for the write connection, whose transactions
 * stay open across awaits, and better-sqlite3 answers synchronously: no queue for the connection,
 * no chain of promises. A read refused with SQLITE_BUSY (in WAL mode only while another process
 * recovers the file) takes `queued` instead, which waits for the lock without blocking.
 *
 * The reads of one event-loop turn share one read transaction, a snapshot, ended on the next
 * check phase, when it is SNAPSHOT_MAX_AGE_MS old, or as soon as this process's write connection
 * runs a statement (`endSnapshot`): SQLite takes and drops its WAL read lock (two fcntl calls and
 * an fstat) per transaction, which cost more than the look-up itself (3.8 µs against 1.2 µs inside
 * a transaction). So a read sees every commit of this process before it, and another process's
 * commits at most a millisecond late. Each snapshot begins by reading `PRAGMA data_version`,
 * which changes with every commit of another connection (this process's write connection, other
 * processes): while it stays the same, a read already made returns its remembered rows (about
 * 0.2 µs against 2.6 µs for the statement in a busy server, the topic look-ups repeating the
 * same few reads). See docs/decisions/092.
 */
export function openReadConnection(path: string, queued: RunRead): ReadConnection {
  const database = new SQLite(path);
  database.pragma('busy_timeout = 0');
  database.pragma('query_only = ON');
  setPageCache(database);
  const prepare = makeStatementCache(database);
  const begin = database.prepare('BEGIN');
  const commit = database.prepare('COMMIT');
  const rollback = database.prepare('ROLLBACK');
  const dataVersion = database.prepare('PRAGMA data_version').pluck();
  const results = new ReadResultCache();
  let version: unknown;
  // Kept here: better-sqlite3's `inTransaction` asks the native side, a visible cost per read.
  let inSnapshot = false;
  let snapshotAt = 0;
  const endSnapshot = () => {
    if (!inSnapshot) return;
    inSnapshot = false;
    if (!database.open || !database.inTransaction) return;
    try {
      commit.run();
    } catch {
      // Ending a read-only transaction should not fail; if it does, the next BEGIN must not.
      if (database.inTransaction) rollback.run();
    }
  };
  return {
    run: async (query) => {
      try {
        if (inSnapshot && performance.now() - snapshotAt > SNAPSHOT_MAX_AGE_MS) endSnapshot();
        if (!inSnapshot) {
          begin.run();
          inSnapshot = true;
          snapshotAt = performance.now();
          setImmediate(endSnapshot);
          const current = dataVersion.get();
          if (current !== version) {
            results.clear();
            version = current;
          }
        }
        const { sql, parameters } = query;
        const rows =
          results.get(sql, parameters) ??
          results.set(sql, parameters, prepare(sql).all(parameters));
        return rows as readonly never[];
      } catch (error) {
        endSnapshot();
        if (isBusy(error)) return queued(query);
        throw error;
      }
    },
    endSnapshot,
    close: () => {
      endSnapshot();
      database.close();
    },
  };
}
