import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import type { Agent } from 'node:http';
import { before, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { sql } from 'kysely';
import { describeWithDatabase, SQLITE } from '../../../test/helpers/each-database.ts';
import {
  call,
  keepAliveAgent,
  type Reply,
  topicBody,
  userFields,
} from '../../../test/helpers/http.ts';
import { holdWriteLock } from '../../../test/helpers/sqlite-write-lock.ts';
import { useTestServer } from '../../../test/helpers/test-server.ts';
import {
  countRows,
  findUserIdsByEmail,
  waitForOutput,
  withDatabase,
} from '../../../test/support/database-rows.ts';
import { countWalCommits } from '../../../test/support/sqlite-wal.ts';

/** A bcrypt hash as the password is stored as sent: no request waits for bcrypt's thread pool. */
const BCRYPT_HASH = '$2y$10$.vGA1O9wmRjrwAVXD98HNOgsNpDczlqm3Jq7KnEd1rVAGv3Fykk1a';
/** How long the requests get to reach the write queue while the lock is held (they need ~ms). */
const QUEUE_MS = 500;
const USER_TABLES = ['users', 'user_emails', 'user_accounts', 'audit_log'] as const;

// Issue 13: on SQLite, creations waiting for the connection share one transaction and one fsync
// (docs/decisions/091-group-commit-on-sqlite.md). The commits are counted in the WAL file itself.
describeWithDatabase('user/add group commit on SQLite', SQLITE, (database) => {
  const server = useTestServer({ database, env: { DESKGATE_DB_QUERY_TIMEOUT: '10000' } });
  before(async () => {
    // The key's first use writes `last_used`, and the first idempotent add of the minute sweeps
    // expired keys: both take the write lock, so both happen here, before any count.
    assert.equal((await server.request(topicBody(1))).status, 200);
    const warmUp = await add(userFields({ password: BCRYPT_HASH }), randomUUID());
    assert.equal(warmUp.status, 200, warmUp.text);
  });

  function add(
    parameters: Record<string, unknown>,
    idempotencyKey?: string,
    agent?: Agent,
  ): Promise<Reply> {
    return call(server.url, {
      method: 'POST',
      ...(agent ? { agent } : {}),
      headers: {
        apikey: server.key,
        ...(idempotencyKey === undefined ? {} : { 'Idempotency-Key': idempotencyKey }),
      },
      body: { query: 'user', condition: 'add', parameters },
    });
  }

  /** Runs `requests` at once and returns their replies and the transactions they committed. */
  async function committing(
    requests: readonly (() => Promise<Reply>)[],
    options: { queueBehindLock: boolean },
  ): Promise<{ replies: Reply[]; commits: number }> {
    const path = database.sqlitePath as string;
    const before = countWalCommits(path);
    // Another process holding the write lock makes every request queue before the first commit.
    const lock = options.queueBehindLock ? await holdWriteLock(path) : undefined;
    let replies: Reply[];
    try {
      const pending = Promise.all(requests.map((request) => request()));
      if (lock) {
        await sleep(QUEUE_MS);
        await lock.release();
      }
      replies = await pending;
    } finally {
      await lock?.release();
    }
    const after = countWalCommits(path);
    assert.equal(after.salt, before.salt, 'the WAL started over: its commits cannot be counted');
    return { replies, commits: after.commits - before.commits };
  }

  const statuses = (replies: Reply[]) => replies.map((r) => `${r.status} ${r.body?.code ?? ''}`);

  test('40 simultaneous adds: all 200 with distinct ids, every row there, fewer commits than users', async (t) => {
    const rowsBefore = await countRows(database.url, USER_TABLES);
    const emails = Array.from({ length: 40 }, (_, n) => `together.${n}@example.com`);
    // Open connections, as busy clients have: node:http accepts one new connection per turn of
    // the event loop, so 40 new connections would arrive one commit apart.
    const agents = emails.map(() => keepAliveAgent());
    t.after(() => {
      for (const agent of agents) agent.destroy();
    });
    for (const agent of agents) {
      const reply = await call(server.url, {
        headers: { apikey: server.key },
        body: topicBody(1),
        agent,
      });
      assert.equal(reply.status, 200, reply.text);
    }
    const { replies, commits } = await committing(
      emails.map(
        (email, n) => () => add(userFields({ email, password: BCRYPT_HASH }), undefined, agents[n]),
      ),
      { queueBehindLock: false },
    );
    assert.deepEqual(
      statuses(replies),
      replies.map(() => '200 '),
    );
    assert.equal(new Set(replies.map((r) => r.body?.data)).size, emails.length);
    for (const [n, email] of emails.entries())
      assert.deepEqual(await findUserIdsByEmail(database.url, email), [
        Number(replies[n]?.body?.data),
      ]);
    assert.deepEqual(
      await countRows(database.url, USER_TABLES),
      rowsBefore.map((n) => n + emails.length),
    );
    // One transaction per creation would be 40 commits.
    assert.ok(commits >= 1 && commits < emails.length, `${commits} commits for 40 users`);
  });

  test('70 creations queued for the lock: two commits (at most 64 in one), all acknowledged', async () => {
    const rowsBefore = await countRows(database.url, USER_TABLES);
    const emails = Array.from({ length: 70 }, (_, n) => `queued.${n}@example.com`);
    const { replies, commits } = await committing(
      emails.map((email) => () => add(userFields({ email, password: BCRYPT_HASH }))),
      { queueBehindLock: true },
    );
    assert.deepEqual(
      statuses(replies),
      replies.map(() => '200 '),
    );
    assert.equal(new Set(replies.map((r) => r.body?.data)).size, emails.length);
    assert.deepEqual(
      await countRows(database.url, USER_TABLES),
      rowsBefore.map((n) => n + emails.length),
    );
    assert.equal(commits, 2);
  });

  test('a duplicate address in the batch: 409 naming the id its batch committed; the others succeed', async () => {
    const rowsBefore = await countRows(database.url, USER_TABLES);
    const taken = 'taken.in.batch@example.com';
    const parameters = [
      userFields({ email: 'batch.first@example.com', password: BCRYPT_HASH }),
      userFields({ email: taken, password: BCRYPT_HASH }),
      userFields({ email: 'batch.middle@example.com', password: BCRYPT_HASH }),
      userFields({ email: taken.toUpperCase(), password: BCRYPT_HASH }),
      userFields({ email: 'batch.last@example.com', password: BCRYPT_HASH }),
    ];
    const { replies, commits } = await committing(
      parameters.map((p) => () => add(p)),
      { queueBehindLock: true },
    );
    assert.equal(commits, 1, 'the five creations shared one transaction');
    const winners = replies.filter((r) => r.status === 200);
    const losers = replies.filter((r) => r.status !== 200);
    assert.equal(winners.length, 4, statuses(replies).join(','));
    assert.equal(losers.length, 1);
    const [takenId] = await findUserIdsByEmail(database.url, taken);
    assert.ok(takenId !== undefined);
    assert.equal(losers[0]?.status, 409, losers[0]?.text);
    assert.equal(losers[0]?.body?.code, 'duplicate_email');
    assert.equal(losers[0]?.body?.existing_id, String(takenId));
    // The loser's own user row, written before its address failed, went with its savepoint.
    assert.deepEqual(
      await countRows(database.url, USER_TABLES),
      rowsBefore.map((n) => n + 4),
    );
  });

  test('a creation that makes SQLite roll the whole transaction back fails its batch, none of it written', async () => {
    const rowsBefore = await countRows(database.url, USER_TABLES);
    // RAISE(ROLLBACK) ends the whole transaction, as SQLITE_FULL or SQLITE_IOERR may.
    await withDatabase(database.url, (db) =>
      sql`CREATE TRIGGER roll_back_everything BEFORE INSERT ON user_accounts WHEN NEW.timezone = 'Antarctica/Troll' BEGIN SELECT RAISE(ROLLBACK, 'injected rollback'); END`.execute(
        db,
      ),
    );
    try {
      const timezones = ['UTC', 'UTC', 'Antarctica/Troll', 'UTC', 'UTC'];
      const { replies, commits } = await committing(
        timezones.map(
          (timezone, n) => () =>
            add(
              userFields({
                email: `rolled.back.${n}@example.com`,
                timezone,
                password: BCRYPT_HASH,
              }),
            ),
        ),
        { queueBehindLock: true },
      );
      assert.equal(commits, 0);
      // Those that ran before it are not acknowledged: their work went with the transaction.
      assert.deepEqual(
        statuses(replies),
        replies.map(() => '500 internal_error'),
      );
      assert.deepEqual(await countRows(database.url, USER_TABLES), rowsBefore);
      // The log names the real cause, not a failed ROLLBACK TO of a transaction already gone.
      await waitForOutput(server, 'injected rollback');
      assert.doesNotMatch(server.output.join('\n'), /no such savepoint|cannot rollback/);
    } finally {
      await withDatabase(database.url, (db) => sql`DROP TRIGGER roll_back_everything`.execute(db));
    }
  });

  test('an Idempotency-Key replayed within the batch gets the first response; one user', async () => {
    const idempotencyKey = randomUUID();
    const retried = userFields({ email: 'retried.in.batch@example.com', password: BCRYPT_HASH });
    const requests = [
      () => add(userFields({ email: 'beside.retry.1@example.com', password: BCRYPT_HASH })),
      () => add(retried, idempotencyKey),
      () => add(retried, idempotencyKey),
      () => add(userFields({ email: 'beside.retry.2@example.com', password: BCRYPT_HASH })),
      () => add(retried, idempotencyKey),
    ];
    const { replies, commits } = await committing(requests, { queueBehindLock: true });
    assert.equal(commits, 1, 'the five creations shared one transaction');
    assert.deepEqual(
      statuses(replies),
      replies.map(() => '200 '),
    );
    const ids = [1, 2, 4].map((i) => replies[i]?.body?.data);
    assert.equal(new Set(ids).size, 1, `the retries got ${ids.join(', ')}`);
    assert.deepEqual(await findUserIdsByEmail(database.url, String(retried.email)), [
      Number(ids[0]),
    ]);
  });
});
