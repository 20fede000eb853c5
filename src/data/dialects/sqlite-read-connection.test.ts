import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import SQLite from 'better-sqlite3';
import { CompiledQuery, sql } from 'kysely';
import { openSqlite } from './sqlite.ts';
import { openReadConnection } from './sqlite-read-connection.ts';

const nextTurn = () => new Promise((resolve) => setImmediate(resolve));
const count = CompiledQuery.raw('select count(*) as n from t', []);

/** A WAL file with one row in `t`, a connection that writes to it, and a read connection. */
function openBesideAnotherConnection(path: string) {
  const other = new SQLite(path);
  other.pragma('journal_mode = WAL');
  other.exec('create table t (x integer); insert into t values (1)');
  const reads = openReadConnection(path, async () => {
    throw new Error('not queued');
  });
  return { other, reads };
}

describe('SQLite read connection', () => {
  const dir = mkdtempSync(join(tmpdir(), 'deskgate-read-connection-'));
  after(() => rmSync(dir, { recursive: true, force: true }));

  test('a read refused with SQLITE_BUSY goes the queued way; other errors go up', async () => {
    // A rollback-journal file, where another connection's EXCLUSIVE lock really refuses readers
    // (in WAL mode, what deskgate uses, only a recovery does).
    const path = join(dir, 'journal.db');
    const holder = new SQLite(path);
    holder.exec('create table t (x integer); insert into t values (1)');
    const queued: CompiledQuery[] = [];
    const reads = openReadConnection(path, async (query) => {
      queued.push(query);
      return [{ x: 'from the queue' }] as never[];
    });
    try {
      const select = CompiledQuery.raw('select x from t', []);
      assert.deepEqual(await reads.run(select), [{ x: 1 }]);
      assert.equal(queued.length, 0);

      // Without WAL, the turn's snapshot holds a SHARED lock until the turn ends.
      await nextTurn();
      holder.exec('begin exclusive');
      assert.deepEqual(await reads.run(select), [{ x: 'from the queue' }]);
      assert.deepEqual(queued, [select]);
      holder.exec('rollback');

      await assert.rejects(() => reads.run(CompiledQuery.raw('select nothing from t', [])), {
        code: 'SQLITE_ERROR',
      });
      assert.equal(queued.length, 1);
    } finally {
      reads.close();
      holder.close();
    }
  });

  test("another connection's commit is seen from the next turn, and checkpoints are not held back", async () => {
    const { other, reads } = openBesideAnotherConnection(join(dir, 'turns.db'));
    try {
      assert.deepEqual(await reads.run(count), [{ n: 1 }]);
      other.exec('insert into t values (2)');
      // Within the turn the read may come from the shared snapshot (a performance matter that the
      // bench measures); from the next turn on it must not.
      await nextTurn();
      assert.deepEqual(await reads.run(count), [{ n: 2 }]);
      // A snapshot left open would hold every checkpoint back; the turn's end lets it finish.
      await nextTurn();
      const [checkpoint] = other.pragma('wal_checkpoint(TRUNCATE)') as { busy: number }[];
      assert.equal(checkpoint?.busy, 0);
    } finally {
      reads.close();
      other.close();
    }
  });

  test('a write of this process is seen by the reads after it, in the same turn', async () => {
    const path = join(dir, 'own-writes.db');
    const { db, runRead } = openSqlite<{ t: { x: number } }>(path, 1_000);
    assert.ok(runRead);
    try {
      await sql`create table t (x integer)`.execute(db);
      await db.insertInto('t').values({ x: 1 }).execute();
      assert.deepEqual(await runRead(count), [{ n: 1 }]);
      await db.insertInto('t').values({ x: 2 }).execute();
      assert.deepEqual(await runRead(count), [{ n: 2 }]);
    } finally {
      await db.destroy();
    }
  });

  test('a snapshot is not shared once it is a millisecond old, even within one turn', async () => {
    const { other, reads } = openBesideAnotherConnection(join(dir, 'age.db'));
    try {
      assert.deepEqual(await reads.run(count), [{ n: 1 }]);
      other.exec('insert into t values (2)');
      const until = performance.now() + 3;
      while (performance.now() < until) {
        // Still the same turn: only the snapshot's age can end it.
      }
      assert.deepEqual(await reads.run(count), [{ n: 2 }]);
    } finally {
      reads.close();
      other.close();
    }
  });
});
