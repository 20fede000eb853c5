import assert from 'node:assert/strict';
import { randomInt } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { hashSync } from '@node-rs/bcrypt';
import { DATABASES, type TestDatabase } from '../helpers/databases.ts';
import { call, keepAliveAgent, type Reply, userBody } from '../helpers/http.ts';
import { createKey, type StartedServer, startServer } from '../helpers/server.ts';
import { withDatabase } from '../support/database-rows.ts';
import { assertCleanLog, LONG } from './robustness-support.ts';

/**
 * kill -9 in the middle of a burst of user creations, several times over: every acknowledged
 * (200) user is there after the restart with its email and account rows, and no user exists
 * without them (nor an email or account without its user).
 */
const ROUNDS = LONG ? 25 : 3;
/** Clients creating users at once during a burst. */
const CONCURRENCY = 8;

interface Acknowledged {
  id: number;
  email: string;
}

/** Each user's password is its own, so the log can be searched for every one of them. */
function passwordOf(email: string): string {
  return `pw:${Buffer.from(email).toString('base64url')}`;
}

/**
 * What client `n` sends as the password: half the clients send it already hashed, which skips
 * bcrypt's thread pool, so that their creations reach the server together and share commits
 * (SQLite's group commit, docs/decisions/091-group-commit-on-sqlite.md).
 */
function passwordSent(email: string, n: number): string {
  return n % 2 === 0 ? hashSync(passwordOf(email), 4) : passwordOf(email);
}

/**
 * Creates users from CONCURRENCY clients until `stop()`; returns the acknowledged ones and every
 * password and hash sent (none may reach the log).
 */
function burst(server: StartedServer, key: string, round: number) {
  const acknowledged: Acknowledged[] = [];
  const secrets: string[] = [];
  let stopped = false;
  let sequence = 0;
  async function client(n: number): Promise<void> {
    // One connection per client, kept open as a busy caller does.
    const agent = keepAliveAgent();
    try {
      while (!stopped) {
        const email = `crash.r${round}.${sequence++}.${randomInt(1e9)}@example.com`;
        const password = passwordSent(email, n);
        secrets.push(passwordOf(email), password);
        let reply: Reply;
        try {
          reply = await call(server.url, {
            method: 'POST',
            headers: { apikey: key },
            body: userBody({ email, password }),
            agent,
          });
        } catch {
          // The server died under this request: its outcome is unknown, and that is allowed.
          return;
        }
        assert.equal(reply.status, 200, reply.text);
        acknowledged.push({ id: Number(reply.body?.data), email });
      }
    } finally {
      agent.destroy();
    }
  }
  const clients = Array.from({ length: CONCURRENCY }, (_, n) => client(n));
  return {
    acknowledged,
    secrets,
    stop: async () => {
      stopped = true;
      await Promise.all(clients);
    },
  };
}

/** Users missing their email or account row, and email or account rows without a user. */
async function findHalfWrittenUsers(databaseUrl: string): Promise<number[]> {
  return withDatabase(databaseUrl, async (db) => {
    const withoutEmail = await db
      .selectFrom('users')
      .select('users.id')
      .where(({ not, exists, selectFrom }) =>
        not(
          exists(
            selectFrom('user_emails')
              .select('user_emails.id')
              .whereRef('user_emails.user_id', '=', 'users.id'),
          ),
        ),
      )
      .execute();
    const withoutAccount = await db
      .selectFrom('users')
      .select('users.id')
      .where(({ not, exists, selectFrom }) =>
        not(
          exists(
            selectFrom('user_accounts')
              .select('user_accounts.user_id')
              .whereRef('user_accounts.user_id', '=', 'users.id'),
          ),
        ),
      )
      .execute();
    const orphanEmails = await db
      .selectFrom('user_emails')
      .select('user_emails.user_id as id')
      .where(({ not, exists, selectFrom }) =>
        not(
          exists(
            selectFrom('users').select('users.id').whereRef('users.id', '=', 'user_emails.user_id'),
          ),
        ),
      )
      .execute();
    const orphanAccounts = await db
      .selectFrom('user_accounts')
      .select('user_accounts.user_id as id')
      .where(({ not, exists, selectFrom }) =>
        not(
          exists(
            selectFrom('users')
              .select('users.id')
              .whereRef('users.id', '=', 'user_accounts.user_id'),
          ),
        ),
      )
      .execute();
    return [...withoutEmail, ...withoutAccount, ...orphanEmails, ...orphanAccounts].map((r) =>
      Number(r.id),
    );
  });
}

async function findStored(
  databaseUrl: string,
  ids: number[],
): Promise<Map<number, { email: string; accounts: number }>> {
  return withDatabase(databaseUrl, async (db) => {
    const found = new Map<number, { email: string; accounts: number }>();
    if (ids.length === 0) return found;
    const emails = await db
      .selectFrom('user_emails')
      .select(['user_id', 'address'])
      .where('user_id', 'in', ids)
      .execute();
    const accounts = await db
      .selectFrom('user_accounts')
      .select('user_id')
      .where('user_id', 'in', ids)
      .execute();
    const users = await db.selectFrom('users').select('id').where('id', 'in', ids).execute();
    const present = new Set(users.map((u) => Number(u.id)));
    for (const row of emails) {
      const id = Number(row.user_id);
      if (!present.has(id)) continue;
      found.set(id, {
        email: row.address,
        accounts: accounts.filter((a) => Number(a.user_id) === id).length,
      });
    }
    return found;
  });
}

for (const kind of DATABASES) {
  describe(`kill -9 during a burst of user creations on ${kind.name}`, {
    timeout: LONG ? 1_800_000 : 120_000,
  }, () => {
    let database: TestDatabase;
    let key: string;

    before(async () => {
      database = await kind.create();
      ({ key } = await createKey(database.url, { scopes: ['write'] }));
    });
    after(async () => {
      await database?.drop();
    });

    test(`${ROUNDS} rounds: every acknowledged user survives whole, no user is half-written`, async () => {
      const everyAcknowledged: Acknowledged[] = [];
      for (let round = 0; round < ROUNDS; round++) {
        const server = await startServer({
          databaseUrl: database.url,
          env: { DESKGATE_RATE_LIMIT: '0' },
        });
        const running = burst(server, key, round);
        // Kill at a different point each round, always with several requests in flight.
        const killAfter = randomInt(5, 40);
        const deadline = Date.now() + 15_000;
        while (running.acknowledged.length < killAfter && Date.now() < deadline) {
          await new Promise((resolve) => setTimeout(resolve, 1));
        }
        server.process.kill('SIGKILL');
        await server.stop();
        await running.stop();
        assert.ok(
          running.acknowledged.length >= killAfter,
          `only ${running.acknowledged.length} users were created`,
        );
        assertCleanLog(server, [key, ...running.secrets]);
        everyAcknowledged.push(...running.acknowledged);

        const stored = await findStored(
          database.url,
          everyAcknowledged.map((a) => a.id),
        );
        for (const { id, email } of everyAcknowledged) {
          assert.equal(
            stored.get(id)?.email,
            email,
            `round ${round}: acknowledged user ${id} (${email}) is missing`,
          );
          assert.equal(
            stored.get(id)?.accounts,
            1,
            `round ${round}: user ${id} has no account row`,
          );
        }
        assert.deepEqual(await findHalfWrittenUsers(database.url), [], `round ${round}`);
      }

      // A restarted server knows every acknowledged address.
      const server = await startServer({ databaseUrl: database.url });
      try {
        const sample = everyAcknowledged[randomInt(everyAcknowledged.length)] as Acknowledged;
        const reply = await call(server.url, {
          method: 'POST',
          headers: { apikey: key },
          body: userBody({ email: sample.email }),
        });
        assert.equal(reply.status, 409, reply.text);
        assert.equal(reply.body?.existing_id, String(sample.id));
      } finally {
        await server.stop();
      }
    });
  });
}
