import { createConnection } from 'mysql2/promise';
import pg from 'pg';

/** A session of the test's own on a PostgreSQL or MySQL test database, to hold locks and kill sessions. */
export interface TestSession {
  /**
   * Inserts (uncommitted) a user whose email key is `email`: a user/add of the same address
   * then waits for this transaction's row lock on the unique index.
   */
  holdEmail(email: string): Promise<void>;
  /** Rolls the held transaction back. */
  release(): Promise<void>;
  /** Ids of the other sessions on this database (deskgate's), optionally only those waiting for a lock. */
  otherSessions(options?: { waitingForLock?: boolean }): Promise<number[]>;
  /** Ends those sessions the hard way (pg_terminate_backend, KILL CONNECTION). */
  kill(ids: readonly number[]): Promise<void>;
  query(text: string): Promise<unknown[]>;
  close(): Promise<void>;
}

const AT = '2026-01-01 00:00:00';

export async function openTestSession(
  kind: 'postgres' | 'mysql',
  url: string,
): Promise<TestSession> {
  if (kind === 'postgres') {
    const client = new pg.Client({ connectionString: url });
    client.on('error', () => {});
    await client.connect();
    const query = async (text: string, values: unknown[] = []) =>
      (await client.query(text, values)).rows as unknown[];
    return {
      async holdEmail(email) {
        await query('begin');
        const [user] = (await query(
          `insert into users (org_id, default_email_id, status, name, phone, created_at, updated_at)
           values (0, 0, 1, 'lock holder', 0, $1, $1) returning id`,
          [AT],
        )) as { id: number }[];
        await query('insert into user_emails (user_id, address, address_key) values ($1, $2, $3)', [
          user?.id,
          email,
          email.toLowerCase(),
        ]);
      },
      release: async () => void (await query('rollback')),
      async otherSessions({ waitingForLock = false } = {}) {
        const rows = (await query(
          `select pid from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()
           ${waitingForLock ? "and wait_event_type = 'Lock'" : ''}`,
        )) as { pid: number }[];
        return rows.map((r) => r.pid);
      },
      async kill(ids) {
        for (const id of ids) await query('select pg_terminate_backend($1)', [id]);
      },
      query: (text) => query(text),
      close: () => client.end(),
    };
  }
  const connection = await createConnection(url);
  connection.on('error', () => {});
  const query = async (text: string, values: unknown[] = []) =>
    (await connection.query(text, values))[0] as unknown[];
  return {
    async holdEmail(email) {
      await query('begin');
      const result = (await connection.query(
        `insert into users (org_id, default_email_id, status, name, phone, created_at, updated_at)
         values (0, 0, 1, 'lock holder', 0, ?, ?)`,
        [AT, AT],
      )) as unknown as [{ insertId: number }];
      await query('insert into user_emails (user_id, address, address_key) values (?, ?, ?)', [
        result[0].insertId,
        email,
        email.toLowerCase(),
      ]);
    },
    release: async () => void (await query('rollback')),
    async otherSessions({ waitingForLock = false } = {}) {
      const rows = (await query(
        waitingForLock
          ? `select t.trx_mysql_thread_id as id from information_schema.innodb_trx t
             join information_schema.processlist p on p.id = t.trx_mysql_thread_id
             where t.trx_state = 'LOCK WAIT' and p.db = database()`
          : 'select id from information_schema.processlist where db = database() and id <> connection_id()',
      )) as { id: number }[];
      return rows.map((r) => Number(r.id));
    },
    async kill(ids) {
      for (const id of ids) await query(`kill connection ${Number(id)}`);
    },
    query: (text) => query(text),
    close: () => connection.end(),
  };
}

/**
 * Polls `probe` every 150 ms until it returns a truthy value or `ms` pass. Not faster: InnoDB
 * refreshes information_schema.innodb_trx only when it was not read for 100 ms, so a 50 ms poll
 * would read a stale snapshot forever.
 */
export async function waitFor<T>(probe: () => Promise<T>, ms = 10_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value || Date.now() > deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, 150));
  }
}
