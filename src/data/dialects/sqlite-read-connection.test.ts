import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import SQLite from 'better-sqlite3';
import { CompiledQuery } from 'kysely';
import { openReadConnection } from './sqlite-read-connection.ts';

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
});
