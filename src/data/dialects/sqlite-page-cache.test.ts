import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { CompiledQuery, sql } from 'kysely';
import { openSqlite } from './sqlite.ts';
import { SQLITE_PAGE_CACHE_KIB } from './sqlite-page-cache.ts';

const dir = mkdtempSync(join(tmpdir(), 'deskgate-page-cache-'));
after(() => rmSync(dir, { recursive: true, force: true }));

test('both connections of an open SQLite database have the 64 MiB page cache', async () => {
  const { db, runRead } = openSqlite<object>(join(dir, 'cache.db'), 1_000);
  assert.ok(runRead);
  try {
    const written = await sql<{ cache_size: number }>`pragma cache_size`.execute(db);
    assert.deepEqual(written.rows, [{ cache_size: -SQLITE_PAGE_CACHE_KIB }]);
    const read = await runRead(CompiledQuery.raw('pragma cache_size', []));
    assert.deepEqual(read, [{ cache_size: -SQLITE_PAGE_CACHE_KIB }]);
    assert.equal(SQLITE_PAGE_CACHE_KIB, 65_536);
  } finally {
    await db.destroy();
  }
});
