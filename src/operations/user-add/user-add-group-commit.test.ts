import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { before, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { sql } from 'kysely';
import { describeWithDatabase, SQLITE } from '../../../test/helpers/each-database.ts';
import { call, type Reply, topicBody, userFields } from '../../../test/helpers/http.ts';
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
/**
 * What a locked round may take, from its warm-up to its last request in the write queue, before
 * the once-a-minute writes (a key's last use, the sweep of expired answers) fall due again and
 * would wait for the lock outside the queue. Normally a few milliseconds; the bound turns what
 * would be a hang into a failure that says why.
 */
const ROUND_BOUND_MS = 50_000;
const WARM_UP_USER = userFields({ email: 'warm.up@example.com', password: BCRYPT_HASH });
const USER_TABLES = ['users', 'user_emails', 'user_accounts', 'audit_log'] as const;

// Issue 13: on SQLite, creations waiting for the connection share one transaction and one fsync
// (docs/decisions/091-group-commit-on-sqlite.md). The commits are counted in the WAL file itself.
describeWithDatabase('user/add group commit on SQLite', SQLITE, (database) => {
  // The queued writes wait for the lock as long as the round takes: never a 503 for a slow machine.
  const server = useTestServer({ database, env: { DESKGATE_DB_QUERY_TIMEOUT: '600000' } });
  before(async () => {
    // The key's first use writes `last_used`, and the first idempotent add of the minute sweeps
    // expired keys: both take the write lock, so both happen here, before any count.
    assert.equal((await server.request(topicBody(1))).status, 200);
    const warmUp = await add(WARM_UP_USER, randomUUID());
    assert.equal(warmUp.status, 200, warmUp.text);
  });

  function add(
    parameters: Record<string, unknown>,
    idempotencyKey?: string,
    key = server.key,
  ): Promise<Reply> {
    return call(server.url, {
      method: 'POST',
      headers: {
        apikey: key,
        ...(idempotencyKey === undefined ? {} : { 'Idempotency-Key': idempotencyKey }),
      },
      body: { query: 'user', condition: 'add', parameters },
    });
  }

  /** The writes the server holds for SQLite's write lock, read from /metrics. */
  async function writesWaiting(): Promise<number> {
    const text = await (await fetch(`${server.origin}/metrics`)).text();
    const line = text.split('\n').find((l) => l.startsWith('deskgate_sqlite_writes_waiting '));
    assert.ok(line, 'no deskgate_sqlite_writes_waiting in /metrics');
    return Number(line.split(' ')[1]);
  }

  /**
   * Sends `requests` (each given a fresh key) while another process holds SQLite's write lock,
   * and releases the lock only once every one of them is in the write queue (/metrics says so):
   * how many transactions they commit then depends on the batching alone, not on how fast this
   * machine is. Returns their replies and the transactions committed.
   */
  async function committingBehindLock(
    requests: readonly ((key: string) => Promise<Reply>)[],
  ): Promise<{ replies: Reply[]; commits: number }> {
    const path = database.sqlitePath as string;
    // A fresh key, used once: its last-use write and any due sweep of expired answers happen
    // now, not while the lock is held, where they would wait outside the queue. (The address is
    // the warm-up user's: an idempotent add that sweeps, then writes nothing.)
    const { key } = await server.createKey({ scopes: ['read', 'write'] });
    const warmUp = await add(WARM_UP_USER, randomUUID(), key);
    assert.equal(warmUp.status, 409, warmUp.text);
    const started = performance.now();
    const before = countWalCommits(path);
    const lock = await holdWriteLock(path);
    let replies: Reply[];
    try {
      const pending = Promise.all(requests.map((request) => request(key)));
      while ((await writesWaiting()) < requests.length) {
        assert.ok(
          performance.now() - started < ROUND_BOUND_MS,
          `${await writesWaiting()} of ${requests.length} writes queued after ${ROUND_BOUND_MS} ms`,
        );
        await sleep(5);
      }
      assert.equal(await writesWaiting(), requests.length);
      await lock.release();
      replies = await pending;
    } finally {
      await lock.release();
    }
    const after = countWalCommits(path);
    assert.equal(after.salt, before.salt, 'the WAL started over: its commits cannot be counted');
    return { replies, commits: after.commits - before.commits };
  }

  const statuses = (replies: Reply[]) => replies.map((r) => `${r.status} ${r.body?.code ?? ''}`);

  // How many commits simultaneous adds share depends on when each arrives, so on the machine's
  // load: the rounds behind a lock below count them; this one checks that none is lost.
  test('40 simultaneous adds: all 200 with distinct ids, every row there', async () => {
    const rowsBefore = await countRows(database.url, USER_TABLES);
    const emails = Array.from({ length: 40 }, (_, n) => `together.${n}@example.com`);
    const replies = await Promise.all(
      emails.map((email) => add(userFields({ email, password: BCRYPT_HASH }))),
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
  });

  test('70 creations queued for the lock: two commits (at most 64 in one), all acknowledged', async () => {
    const rowsBefore = await countRows(database.url, USER_TABLES);
    const emails = Array.from({ length: 70 }, (_, n) => `queued.${n}@example.com`);
    const { replies, commits } = await committingBehindLock(
      emails.map(
        (email) => (key) => add(userFields({ email, password: BCRYPT_HASH }), undefined, key),
      ),
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
    const { replies, commits } = await committingBehindLock(
      parameters.map((p) => (key) => add(p, undefined, key)),
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
      const { replies, commits } = await committingBehindLock(
        timezones.map(
          (timezone, n) => (key) =>
            add(
              userFields({
                email: `rolled.back.${n}@example.com`,
                timezone,
                password: BCRYPT_HASH,
              }),
              undefined,
              key,
            ),
        ),
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
      (key: string) =>
        add(
          userFields({ email: 'beside.retry.1@example.com', password: BCRYPT_HASH }),
          undefined,
          key,
        ),
      (key: string) => add(retried, idempotencyKey, key),
      (key: string) => add(retried, idempotencyKey, key),
      (key: string) =>
        add(
          userFields({ email: 'beside.retry.2@example.com', password: BCRYPT_HASH }),
          undefined,
          key,
        ),
      (key: string) => add(retried, idempotencyKey, key),
    ];
    const { replies, commits } = await committingBehindLock(requests);
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
