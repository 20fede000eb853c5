import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Kysely } from 'kysely';
import { openDatabase } from '../open-database.ts';
import {
  makeReader,
  type Param,
  prepareQuery,
  prepareRead,
  type Reader,
} from './prepared-query.ts';

interface Db {
  things: { id: number; name: string; kind: string };
}

describe('prepared queries on SQLite', () => {
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

  test('a file database has a read connection', () => {
    assert.equal(typeof opened.runRead, 'function');
  });

  for (const [name, reader] of readers) {
    test(`${name}: built once, then run with each call's values`, async () => {
      let builds = 0;
      const byKindAbove = prepareRead(
        (d: Kysely<Db>, param: Param<{ kind: string; above: number }>) => {
          builds++;
          return d
            .selectFrom('things')
            .select(['id', 'name'])
            .where('kind', '=', param('kind'))
            .where('id', '>', param('above'))
            .orderBy('id');
        },
      );
      assert.deepEqual(await byKindAbove(reader, { kind: 'a', above: 0 }), [
        { id: 1, name: 'one' },
        { id: 3, name: 'three' },
      ]);
      assert.deepEqual(await byKindAbove(reader, { kind: 'a', above: 1 }), [
        { id: 3, name: 'three' },
      ]);
      assert.deepEqual(await byKindAbove(reader, { above: 0, kind: 'b' }), [
        { id: 2, name: 'two' },
      ]);
      assert.deepEqual(await byKindAbove(reader, { kind: 'c', above: 0 }), []);
      assert.equal(builds, 1);
    });
  }

  test('a prepared write runs in a transaction, compiled once for the database and its transactions', async () => {
    let builds = 0;
    const rename = prepareQuery((d: Kysely<Db>, param: Param<{ id: number; name: string }>) => {
      builds++;
      return d
        .updateTable('things')
        .set({ name: param('name') })
        .where('id', '=', param('id'));
    });
    await db.transaction().execute(async (trx) => {
      await rename(trx, { id: 2, name: 'deux' });
      await rename(trx, { id: 3, name: 'trois' });
    });
    await rename(db, { id: 1, name: 'un' });
    const names = await db.selectFrom('things').select('name').orderBy('id').execute();
    assert.deepEqual(
      names.map((row) => row.name),
      ['un', 'deux', 'trois'],
    );
    assert.equal(builds, 1);
  });

  test('the read connection refuses to write', async () => {
    const run = opened.runRead;
    assert.ok(run);
    const insert = db
      .insertInto('things')
      .values({ id: 9, name: 'nine', kind: 'z' })
      .returning('id')
      .compile();
    await assert.rejects(() => run(insert), { code: 'SQLITE_READONLY' });
  });
});
