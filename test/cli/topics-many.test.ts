import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { runCli } from '../helpers/cli.ts';

// Issue 37, item 6: from about 130,000 topics, `topics list` died of "Maximum call stack size
// exceeded" (a column's widths spread into Math.max), although the import that made them worked.
const COUNT = 140_000;

describe(`the topics commands with ${COUNT.toLocaleString('en')} topics under one parent`, () => {
  let dir: string;
  let database: string;
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'deskgate-topics-many-'));
    database = `sqlite:${join(dir, 'many.db')}`;
    const file = join(dir, 'topics.json');
    const below = Array.from({ length: COUNT }, (_, i) => ({ topic: `Many ${i}`, parent: 900 }));
    writeFileSync(file, JSON.stringify([{ id: 900, topic: 'Parent of many' }, ...below]));
    assert.equal((await runCli(['migrate', '--database', database])).code, 0);
    const imported = await runCli(['topics', 'import', file, '--database', database]);
    assert.equal(imported.stderr, '');
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
