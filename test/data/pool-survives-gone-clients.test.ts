import assert from 'node:assert/strict';
import { request } from 'node:http';
import { after, before, describe, test } from 'node:test';
import { createConnection } from 'mysql2/promise';
import pg from 'pg';
import { DATABASES } from '../helpers/databases.ts';
import { useDatabase } from '../helpers/each-database.ts';
import { type TestServer, useTestServer } from '../helpers/test-server.ts';

/**
 * Issue 34: the pool outlives more gone clients than it has connections. Every connection of a
 * pool of two runs a read held behind the test's lock on `tickets`, two more calls wait for a
 * connection, and all four clients go away at once. Each held read's cancel needs a connection
 * of its own; a pool that kept a connection back until its cancel had ended never got one back
 * (every connection waiting on a cancel that waited for a free one): the server stopped
 * answering for good, as the MySQL bench did after wrk disconnected. Once the lock goes, the
 * next call must be answered.
 */

const POOL_MAX = 2;
const CLIENTS = 4;

/** A session of the test's own that locks `tickets` against reads and counts the reads it holds. */
interface Locker {
  lockTickets(): Promise<void>;
  unlock(): Promise<void>;
  /** Statements of other sessions waiting for a lock. */
  waiting(): Promise<number>;
  close(): Promise<void>;
}

async function openLocker(kind: 'postgres' | 'mysql', url: string): Promise<Locker> {
  if (kind === 'postgres') {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    // pg_stat_activity is read once per transaction: look from outside the locking one.
    const observer = new pg.Client({ connectionString: url });
    await observer.connect();
    return {
      async lockTickets() {
        await client.query('begin');
        await client.query('lock table tickets in access exclusive mode');
      },
      unlock: async () => {
        await client.query('rollback');
      },
      async waiting() {
        const { rows } = await observer.query<{ n: number }>(
          `select count(*)::int as n from pg_stat_activity
           where datname = current_database() and pid <> pg_backend_pid() and pid <> $1
             and wait_event_type = 'Lock'`,
          [(client as unknown as { processID: number }).processID],
        );
        return rows[0]?.n ?? 0;
      },
      close: async () => {
        await client.end();
        await observer.end();
      },
    };
  }
  const locker = await createConnection(url);
  const observer = await createConnection(url);
  return {
    async lockTickets() {
      await locker.query('lock tables tickets write');
    },
    unlock: async () => {
      await locker.query('unlock tables');
    },
    async waiting() {
      const [rows] = await observer.query(
        `select count(*) as n from information_schema.processlist
         where db = database() and command = 'Query' and state like 'Waiting for table%lock'`,
      );
      return Number((rows as { n: number }[])[0]?.n ?? 0);
    },
    close: async () => {
      await locker.end();
      await observer.end();
    },
  };
}

/** Waits for `check`; `ms` bounds a hang, generous for a loaded machine (it is no timing assert). */
async function eventually(check: () => Promise<boolean>, what: string, ms: number) {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`not within ${ms} ms: ${what}`);
}

/** Sends a ticket look-up and leaves it open; the caller destroys it. */
function lookUpAndWait(server: TestServer) {
  const body = JSON.stringify({
    query: 'ticket',
    condition: 'specific',
    parameters: { number: '000001' },
  });
  const sent = request(server.url, {
    method: 'GET',
    agent: false,
    headers: {
      apikey: server.key,
      'content-type': 'application/json',
      'content-length': Buffer.byteLength(body),
    },
  });
  sent.on('error', () => {});
  sent.end(body);
  return sent;
}

/** deskgate_db_pool_waiting_requests, from the server's /metrics. */
async function poolWaiting(server: TestServer): Promise<number> {
  const text = await (await fetch(`${server.origin}/metrics`)).text();
  const line = text.split('\n').find((l) => l.startsWith('deskgate_db_pool_waiting_requests '));
  if (!line) throw new Error(`no deskgate_db_pool_waiting_requests in /metrics:\n${text}`);
  return Number(line.split(' ')[1]);
}

/** `work`, or a failure naming `what` if it has not settled after `ms` (a hang, not a slow answer). */
function unlessHung<T>(work: Promise<T>, what: string, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const hung = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`still no answer after ${ms} ms: ${what}`)), ms);
  });
  return Promise.race([work, hung]).finally(() => clearTimeout(timer));
}

for (const kind of DATABASES.filter((candidate) => candidate.name !== 'sqlite')) {
  const name = kind.name as 'postgres' | 'mysql';
  describe(`the pool outlives more gone clients than it has connections, on ${name}`, () => {
    const { database, drop } = useDatabase(kind);
    const server = useTestServer(() => ({
      database,
      env: {
        DESKGATE_DB_POOL_MAX: String(POOL_MAX),
        // Long enough that neither a held read nor a queued cancel gives up during the test: only
        // the pool itself can recover.
        DESKGATE_DB_QUERY_TIMEOUT: '600000',
        DESKGATE_DB_CONNECT_TIMEOUT: '600000',
      },
    }));
    let locker: Locker;
    before(async () => {
      locker = await openLocker(name, database.url);
    });
    after(async () => {
      await locker?.close();
    });

    test(`${CLIENTS} clients gone while ${POOL_MAX} connections read behind a lock: the next call is answered`, async () => {
      await locker.lockTickets();
      let unlocked = false;
      try {
        const sent = Array.from({ length: CLIENTS }, () => lookUpAndWait(server));
        await eventually(
          async () => (await locker.waiting()) === POOL_MAX,
          `every pooled connection (${POOL_MAX}) reading behind the lock`,
          60_000,
        );
        for (const one of sent) one.destroy();
        // The server saw every client go before the lock goes: the two held reads' cancels now
        // wait for a connection beside the two calls that never got one.
        await eventually(
          async () => (await poolWaiting(server)) === CLIENTS,
          `${CLIENTS} waiting for a pooled connection (${CLIENTS - POOL_MAX} calls, ${POOL_MAX} cancels)`,
          60_000,
        );
        await locker.unlock();
        unlocked = true;

        const next = await unlessHung(
          server.request({
            query: 'ticket',
            condition: 'specific',
            parameters: { number: '000001' },
          }),
          'a look-up after the gone clients (a deadlocked pool never answers)',
          60_000,
        );
        assert.equal(next.status, 204, next.text);
        const again = await unlessHung(
          server.request({
            query: 'ticket',
            condition: 'specific',
            parameters: { number: '000001' },
          }),
          'a second look-up',
          60_000,
        );
        assert.equal(again.status, 204, again.text);
      } finally {
        if (!unlocked) await locker.unlock();
      }
    });
    drop();
  });
}
