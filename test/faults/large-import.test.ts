import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { topics } from '../../src/data/topics/topics.ts';
import { runCli } from '../helpers/cli.ts';
import { DATABASES, type TestDatabase } from '../helpers/databases.ts';
import { withStore } from '../helpers/server.ts';

/**
 * Past SQLite's 32,766 bound parameters per statement, and PostgreSQL's 65,535 elsewhere, in one
 * statement of three parameters a topic (the import stages seven).
 */
const COUNT = { sqlite: 12_000, postgres: 22_000, mysql: 22_000 } as const;

// Issue 14, item 9: `topics import` of more topics than a statement may carry parameters.
for (const kind of DATABASES) {
  describe(`topics import of ${COUNT[kind.name].toLocaleString('en')} topics on ${kind.name}`, () => {
    let database: TestDatabase;
    const file = join(tmpdir(), `deskgate-import-${process.pid}-${kind.name}.json`);

    before(async () => {
      database = await kind.create();
      const topics = Array.from({ length: COUNT[kind.name] }, (_, i) => ({
        // Half with ids, children under them, half left to the database: every path of the insert.
        ...(i % 2 === 0 ? { id: 1000 + i } : {}),
        parent: i % 4 === 1 ? 1000 + i - 1 : 0,
        topic: `Imported ${i}`,
        notes: i % 3 === 0 ? '' : `notes ${i}`,
      }));
      writeFileSync(file, JSON.stringify(topics));
    });
    after(async () => {
      await database?.drop();
    });

    test('imports every topic in one go, exit 0', async () => {
      // Only serve and migrate make a database deskgate's.
      assert.equal((await runCli(['migrate', '--database', database.url])).code, 0);
      const result = await runCli(['topics', 'import', file, '--database', database.url]);
      assert.equal(result.code, 0, result.stderr);
      assert.equal(result.stdout.trim(), `Imported ${COUNT[kind.name]} topics.`);
      await withStore(database.url, async (store) => {
        // The four default topics, and the import.
        assert.equal(await store.data(topics).countTopics(), COUNT[kind.name] + 4);
        const child = await store.data(topics).findTopicById(1000 + 1 - 1);
        assert.equal(child?.name, 'Imported 0');
      });
    });
  });
}
