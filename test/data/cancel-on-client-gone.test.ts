import assert from 'node:assert/strict';
import { request } from 'node:http';
import { after, before, describe, test } from 'node:test';
import { createConnection } from 'mysql2/promise';
import pg from 'pg';
import { DATABASES } from '../helpers/databases.ts';
import { useDatabase } from '../helpers/each-database.ts';
import { useTestServer } from '../helpers/test-server.ts';
import { addUser, ticketAddBody } from '../helpers/tickets.ts';

/**
 * Issue 34, item 3: a statement whose client has gone away is cancelled on the database. The
 * test holds the ticket counter's row lock in a transaction of its own, so ticket/add's UPDATE
 * waits on it (DESKGATE_DB_QUERY_TIMEOUT is a minute); the client then disconnects. Only a
 * cancel can end that wait while the lock is held: the database's own session list must show it
 * gone within seconds.
 */

/** Another session of the test's own, to hold the lock and look at the server's sessions. */
interface Session {
  /** Begins a transaction that locks the counter of tickets. */
  lockTicketCounter(): Promise<void>;
  rollback(): Promise<void>;
  /** deskgate's statements now running or waiting on `counters`. */
  counterStatements(): Promise<string[]>;
  close(): Promise<void>;
}

async function openSession(kind: 'postgres' | 'mysql', url: string): Promise<Session> {
  if (kind === 'postgres') {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    // pg_stat_activity is read once per transaction: look from outside the locking one.
    const observer = new pg.Client({ connectionString: url });
    await observer.connect();
    return {
      async lockTicketCounter() {
        await client.query('begin');
        await client.query(`select * from counters where name = 'ticket' for update`);
      },
      rollback: async () => {
        await client.query('rollback');
      },
      async counterStatements() {
        const { rows } = await observer.query<{ query: string }>(
          `select query from pg_stat_activity
           where datname = current_database() and pid <> pg_backend_pid() and state = 'active'
             and query like 'update "counters"%'`,
        );
        return rows.map((row) => row.query);
      },
      close: async () => {
        await client.end();
        await observer.end();
      },
    };
  }
  const connection = await createConnection(url);
  return {
    async lockTicketCounter() {
      await connection.query('start transaction');
      await connection.query(`select * from counters where name = 'ticket' for update`);
    },
    rollback: async () => {
      await connection.query('rollback');
    },
    async counterStatements() {
      // SHOW PROCESSLIST's rows, as information_schema has them.
      const [rows] = await connection.query(
        `select info from information_schema.processlist
         where db = database() and id <> connection_id() and command = 'Query'
           and info like 'update \`counters\`%'`,
      );
      return (rows as { info: string }[]).map((row) => row.info);
    },
    close: () => connection.end(),
  };
}

async function eventually(check: () => Promise<boolean>, what: string, ms: number) {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`not within ${ms} ms: ${what}`);
}

for (const kind of DATABASES.filter((candidate) => candidate.name !== 'sqlite')) {
  const name = kind.name as 'postgres' | 'mysql';
  describe(`a statement whose client went away is cancelled, on ${name}`, () => {
    const { database, drop } = useDatabase(kind);
    const server = useTestServer(() => ({
      database,
      env: { DESKGATE_DB_QUERY_TIMEOUT: '60000' },
    }));
    let session: Session;
    let userId: number;
    before(async () => {
      session = await openSession(name, database.url);
      userId = await addUser(server.store);
    });
    after(async () => {
      await session?.close();
    });

    test('ticket/add waiting on a locked row ends when its client disconnects; the next one works', async () => {
      await session.lockTicketCounter();
      const body = JSON.stringify(ticketAddBody(userId));
      const sent = request(server.url, {
        method: 'POST',
        headers: {
          apikey: server.key,
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
        },
      });
      sent.on('error', () => {});
      sent.end(body);
      await eventually(
        async () => (await session.counterStatements()).length === 1,
        "deskgate's UPDATE of the counter waiting on the lock",
        10_000,
      );

      sent.destroy();
      await eventually(
        async () => (await session.counterStatements()).length === 0,
        'the waiting UPDATE gone while the lock is still held',
        5_000,
      );
      await session.rollback();

      const added = await server.request(ticketAddBody(userId), { method: 'POST' });
      assert.equal(added.status, 200, added.text);
      const listed = await server.request({
        query: 'ticket',
        condition: 'specific',
        parameters: { number: '000001' },
      });
      assert.equal(listed.status, 200, 'the cancelled call took no number: the next is 000001');
    });
    drop();
  });
}
