import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { runCli } from '../helpers/cli.ts';
import { migrateDatabase, tableRows } from '../helpers/cli-data.ts';
import { DATABASES, type TestDatabase } from '../helpers/databases.ts';
import { assertCleanFailure, runCliJson } from './cli-assertions.ts';

// Decision 280: topics are inserted as they are read, the whole-set checks come at the end.
for (const kind of DATABASES) {
  describe(`topics import, inserted as read, on ${kind.name}`, () => {
    let database: TestDatabase;
    let dir: string;
    const db = () => ['--database', database.url];
    const write = (name: string, content: unknown) => {
      const path = join(dir, name);
      writeFileSync(path, JSON.stringify(content));
      return path;
    };

    before(async () => {
      database = await kind.create();
      await migrateDatabase(database.url);
      dir = mkdtempSync(join(tmpdir(), 'deskgate-streamed-'));
    });
    after(async () => {
      rmSync(dir, { recursive: true, force: true });
      await database.drop();
    });

    test('a problem past the first slices rolls back the slices already inserted', async () => {
      const before = await tableRows(database.url, 'topics');
      const topics = Array.from({ length: 2_500 }, (_, i) => ({ topic: `Streamed ${i}` }));
      const cases: [string, RegExp][] = [
        [
          write('name.json', [...topics, { topic: 'Streamed 7' }]),
          /topic 2501 \("Streamed 7"\): a topic with this name already exists under parent 0; nothing was imported$/,
        ],
        [
          write('parent.json', [...topics, { topic: 'Orphan', parent: 987_654 }]),
          /topic 2501 \("Orphan"\): parent 987654 does not exist; nothing was imported$/,
        ],
        [
          write('field.json', [...topics, { topic: '' }]),
          /topic 2501, field topic: must not be empty; nothing was imported$/,
        ],
      ];
      for (const [file, message] of cases)
        assertCleanFailure(await runCli(['topics', 'import', file, ...db()]), 1, message);
      assert.deepEqual(await tableRows(database.url, 'topics'), before);
    });

    test('a parent may come later in the file; --json prints the stored topics in file order', async () => {
      const file = write('later.json', [
        { topic: 'Child first', parent: 9_100 },
        { topic: 'No id' },
        { id: 9_100, topic: 'Parent later' },
      ]);
      const printed = await runCliJson<{ id: number; parent: number; topic: string }[]>([
        'topics',
        'import',
        file,
        ...db(),
      ]);
      assert.deepEqual(
        printed.map((t) => [t.topic, t.parent]),
        [
          ['Child first', 9_100],
          ['No id', 0],
          ['Parent later', 0],
        ],
      );
      assert.equal(printed[2]?.id, 9_100);
      // Generated ids come after the ids the file names.
      assert.ok((printed[0]?.id ?? 0) > 9_100 && (printed[1]?.id ?? 0) > 9_100);
    });
  });
}
