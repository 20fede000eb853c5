import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Kysely } from 'kysely';
import { openDatabase } from './open-database.ts';
import { makeReader, preparedRead, type Reader } from './prepared-read.ts';

interface Db {
  things: { id: number; name: string; kind: string };
}

describe('preparedRead on SQLite', () => {
  const dir = mkdtempSync(join(tmpdir(), 'deskgate-prepared-'));
  const opened = openDatabase<Db>(`sqlite:${join(dir, 'prepared.db')}`);
  const { db } = opened;
  // Through the read connection, and through Kysely's executor (what PostgreSQL and MySQL use).
  const readers: [string, Reader<Db>][] = [
    ['read connection', makeReader(db, opened.runRead)],
    ['executor', makeReader(db)],
  ];

  before(async () => {
    await db.schema
      .createTable('things')
      .addColumn('id', 'integer', (c) => c.primaryKey())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('kind', 'text', (c) => c.notNull())
      .execute();
    await db
      .insertInto('things')
      .values([
        { id: 1, name: 'one', kind: 'a' },
        { id: 2, name: 'two', kind: 'b' },
        { id: 3, name: 'three', kind: 'a' },
      ])
      .execute();
  });
  after(async () => {
    await db.destroy();
    rmSync(dir, { recursive: true, force: true });
  });

  test('a read connection exists for a file database', () => {
    assert.equal(typeof opened.runRead, 'function');
  });

  for (const [name, reader] of readers) {
    test(`${name}: built once, then run with each call's values`, async () => {
      let builds = 0;
      const byKindAbove = preparedRead(
        (d: Kysely<Db>, kind: string, above: number) => {
          builds++;
          return d
            .selectFrom('things')
            .select(['id', 'name'])
            .where('kind', '=', kind)
            .where('id', '>', above)
            .orderBy('id');
        },
        ['sample', -1],
      );
      assert.deepEqual(await byKindAbove(reader, 'a', 0), [
        { id: 1, name: 'one' },
        { id: 3, name: 'three' },
      ]);
      assert.deepEqual(await byKindAbove(reader, 'a', 1), [{ id: 3, name: 'three' }]);
      assert.deepEqual(await byKindAbove(reader, 'b', 0), [{ id: 2, name: 'two' }]);
      assert.deepEqual(await byKindAbove(reader, 'c', 0), []);
      assert.equal(builds, 1);
    });
  }

  test('a sample that does not come back as the parameters, in order, is refused', () => {
    const [, reader] = readers[0] as [string, Reader<Db>];
    // Two equal samples: which parameter is which cannot be told.
    const ambiguous = preparedRead(
      (d: Kysely<Db>, a: number, b: number) =>
        d.selectFrom('things').selectAll().where('id', '=', a).where('id', '=', b),
      [1, 1],
    );
    assert.throws(() => ambiguous(reader, 1, 2), /distinct sample values/);
    // The query uses its values in another order than the parameters.
    const swapped = preparedRead(
      (d: Kysely<Db>, a: number, b: string) =>
        d.selectFrom('things').selectAll().where('name', '=', b).where('id', '=', a),
      [1, 'x'],
    );
    assert.throws(() => swapped(reader, 1, 'one'), /distinct sample values in order/);
  });

  test('the read connection refuses to write', async () => {
    assert.ok(opened.runRead);
    const insert = db
      .insertInto('things')
      .values({ id: 9, name: 'nine', kind: 'z' })
      .returning('id')
      .compile();
    await assert.rejects(() => (opened.runRead as NonNullable<typeof opened.runRead>)(insert), {
      code: 'SQLITE_READONLY',
    });
  });
});
