import { createRequire } from 'node:module';
import { Kysely, PostgresDialect, type PostgresPool, type PostgresPoolClient, sql } from 'kysely';
import type pg from 'pg';
import {
  CLIENT_TIMEOUT_GRACE_MS,
  codeMatches,
  type Dialect,
  errorMessage,
  isNetworkError,
  messageMatches,
  type OpenDatabase,
  type PoolOptions,
} from './dialect.ts';
import { watchForClientGone } from './request-signal.ts';

let loaded: typeof pg | undefined;

/** node-postgres, loaded on first use: a SQLite or MySQL process never pays for it. */
function loadPg(): typeof pg {
  if (loaded) return loaded;
  loaded = createRequire(import.meta.url)('pg') as typeof pg;
  // COUNT(*) and bigint columns arrive as strings by default; every value deskgate keeps fits a double.
  loaded.types.setTypeParser(loaded.types.builtins.INT8, (value) => Number(value));
  return loaded;
}

/** node-postgres's messages for a connection that is gone or a server that stopped answering. */
const LOST_CONNECTION =
  /Connection terminated|timeout exceeded when trying to connect|Query read timeout|not queryable/;

const postgresDialect: Dialect = {
  name: 'postgres',
  supportsReturning: true,
  isUniqueViolation(error, { index }) {
    const e = error as { code?: unknown; constraint?: unknown } | null;
    return e?.code === '23505' && e.constraint === index;
  },
  isConnectionError(error) {
    if (isNetworkError(error)) return true;
    // Class 08: connection exception; 57P0x: server shutting down or unavailable.
    if (codeMatches(error, /^(08|57P0)/)) return true;
    return messageMatches(error, /Connection terminated|timeout exceeded when trying to connect/);
  },
  isUnavailableError(error) {
    if (postgresDialect.isConnectionError(error)) return true;
    // 57014: statement_timeout; 55P03: lock_not_available; 53xxx: disk full, out of memory, too
    // many connections; 40001/40P01: serialization failure, deadlock (a retry succeeds).
    if (codeMatches(error, /^(57014|55P03|53|40001|40P01)/)) return true;
    return messageMatches(error, LOST_CONNECTION);
  },
  writeTransaction(db, fn) {
    return db.transaction().execute(fn);
  },
  async withExclusiveLock(db, name, fn) {
    // A transaction-scoped advisory lock: released by the commit, or by the server if the
    // connection dies, so a crashed instance never leaves it held.
    return db.transaction().execute(async (trx) => {
      await sql`select pg_advisory_xact_lock(hashtext(${name}))`.execute(trx);
      return fn(trx);
    });
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

/**
 * Cancels the statement `text` on `client`'s backend, from another pooled connection, if that
 * backend still runs it (the client of its request went away; decision 334).
 */
async function cancelOn(pool: pg.Pool, client: pg.PoolClient, text: string): Promise<void> {
  const pid = (client as unknown as { processID?: number }).processID;
  if (!pid) return;
  await pool.query(
    `select pg_cancel_backend(pid) from pg_stat_activity
     where pid = $1 and state = 'active' and left(query, 256) = left($2, 256)`,
    [pid, text],
  );
}

/**
 * Hands Kysely pooled clients that are thrown away, not reused, after a client-side read
 * timeout: the query is still running on that connection (the server went silent), so the next
 * query on it would queue behind it.
 */
function withDiscardOnTimeout(pool: pg.Pool): PostgresPool {
  return {
    async connect() {
      const client = await pool.connect();
      let timedOut: Error | undefined;
      // A connection whose statement a cancel went out for is destroyed, not pooled: the cancel
      // can then reach only this call's statement (or none), never the next call's (decision
      // 334). Holding it back until the cancel ended deadlocked the pool when every connection
      // waited for a cancel that itself waited for a free connection.
      let cancelling: Promise<unknown> | undefined;
      const wrapped = {
        async query(text: string, parameters: readonly unknown[]) {
          const ended = watchForClientGone(text, () => {
            cancelling = cancelOn(pool, client, text).catch(() => {});
            return cancelling;
          });
          try {
            return await client.query(text, parameters as unknown[]);
          } catch (error) {
            if (errorMessage(error) === 'Query read timeout') timedOut = error as Error;
            throw error;
          } finally {
            ended();
          }
        },
        release: () => client.release(cancelling ? true : timedOut),
      };
      // Kysely calls only query(text, parameters) and release(); cursors are never used here.
      return wrapped as unknown as PostgresPoolClient;
    },
    end: () => pool.end(),
    options: pool.options,
  };
}

/**
 * A pool of `pool.max` connections; connecting gives up after `pool.connectTimeoutMs`, a
 * statement after `pool.queryTimeoutMs` (server-side statement_timeout, lock waits included),
 * and a server that stops answering is given up on a second later (client-side read timeout).
 */
export function openPostgres<DB>(url: string, pool: PoolOptions): OpenDatabase<DB> {
  const instance = new (loadPg().Pool)({
    connectionString: url,
    max: pool.max,
    connectionTimeoutMillis: pool.connectTimeoutMs,
    idleTimeoutMillis: 30_000,
    statement_timeout: pool.queryTimeoutMs,
    query_timeout: pool.queryTimeoutMs + CLIENT_TIMEOUT_GRACE_MS,
  });
  // An idle client that loses its server emits here; without a listener the process would crash.
  instance.on('error', () => {});
  // So does a client checked out of the pool (pg_terminate_backend, a failover, a proxy reset):
  // pg-pool listens only while a client is idle. The query in progress fails with the cause and
  // the request gets 503; the pool drops the dead client when it is released.
  instance.on('connect', (client) => client.on('error', () => {}));
  return {
    db: new Kysely<DB>({ dialect: new PostgresDialect({ pool: withDiscardOnTimeout(instance) }) }),
    dialect: postgresDialect,
    poolStats: () => ({
      total: instance.totalCount,
      idle: instance.idleCount,
      waiting: instance.waitingCount,
    }),
  };
}
