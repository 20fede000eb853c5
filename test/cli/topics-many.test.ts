import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import SQLite from 'better-sqlite3';
import { now } from '../../src/data/time.ts';
import { runCli } from '../helpers/cli.ts';
import { migrateDatabase } from '../helpers/cli-data.ts';

// Issue 37, item 6: from about 130,000 topics, `topics list` died of "Maximum call stack size
// exceeded" (a column's widths spread into Math.max), although the import that made them worked.
// The topics are made with one statement: importing that many is the subject of
// topics-import-memory.test.ts, and took most of this file's CPU.
const COUNT = 140_000;

describe(`the topics commands with ${COUNT.toLocaleString('en')} topics under one parent`, () => {
  let dir: string;
  let database: string;
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'deskgate-topics-many-'));
    const path = join(dir, 'many.db');
    database = `sqlite:${path}`;
    await migrateDatabase(database);
    // As `topics import` stores them: public, sort 0, no notes, ids after the parent's.
    const db = new SQLite(path);
    try {
      const at = now();
      db.transaction(() => {
        db.prepare(
          `insert into topics (id, parent_id, is_public, sort, name, notes, created_at, updated_at)
           values (900, 0, 1, 0, 'Parent of many', '', ?, ?)`,
        ).run(at, at);
        db.prepare(
          `with recursive n(i) as (select 0 union all select i + 1 from n where i < ? - 1)
           insert into topics (parent_id, is_public, sort, name, notes, created_at, updated_at)
           select 900, 1, 0, 'Many ' || i, '', ?, ? from n`,
        ).run(COUNT, at, at);
      })();
    } finally {
      db.close();
    }
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  test('topics list prints every one, in aligned columns', async () => {
    const { code, stdout, stderr } = await runCli(['topics', 'list', '--database', database]);
    assert.equal(stderr, '');
    assert.equal(code, 0);
    const lines = stdout.trimEnd().split('\n');
    assert.match(lines[0] ?? '', /^ID {6}PARENT {2}PUBLIC {2}SORT {2}TOPIC$/);
    // The header, the four default topics, the parent and its children.
    assert.equal(lines.length, 1 + 4 + 1 + COUNT);
    assert.match(lines.at(-1) ?? '', new RegExp(`^\\d{6}  900 {5}yes {5}0 {5}Many ${COUNT - 1}$`));
  });

  test('topics delete --with-children deletes the parent and every child', async () => {
    const { code, stdout, stderr } = await runCli([
      'topics',
      'delete',
      '900',
      '--with-children',
      '--json',
      '--database',
      database,
    ]);
    assert.equal(stderr, '');
    assert.equal(code, 0);
    assert.equal((JSON.parse(stdout) as { deleted: number[] }).deleted.length, 1 + COUNT);
    const listed = await runCli(['topics', 'list', '--json', '--database', database]);
    assert.equal((JSON.parse(listed.stdout) as unknown[]).length, 4);
  });
});
