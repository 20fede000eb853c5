import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { hashApiKey } from '../../src/auth/api-key-secret.ts';
import { apiKeys } from '../../src/data/api-keys/api-keys.ts';
import { runCli } from '../helpers/cli.ts';
import { tableRows } from '../helpers/cli-data.ts';
import { insertTopics } from '../helpers/data-setup.ts';
import { DATABASES, type TestDatabase } from '../helpers/databases.ts';
import { describeWithDatabase, SQLITE } from '../helpers/each-database.ts';
import { withStore } from '../helpers/server.ts';
import { assertCleanFailure, runCliJson, runCliText } from './cli-assertions.ts';

interface ListedTopic {
  id: number;
  topic: string;
  notes: string;
}

// Control characters in arguments are usage errors, found before the database is opened: SQLite only.
describeWithDatabase('control characters in CLI arguments', SQLITE, (database) => {
  const db = () => ['--database', database.url];

  before(async () => {
    await withStore(database.url, async () => {}); // a migrated database
  });

  test('keys create and topics add refuse control characters in names: one line, exit 2, nothing stored', async () => {
    const keysBefore = await tableRows(database.url, 'api_keys');
    const topicsBefore = await tableRows(database.url, 'topics');
    const forged = 'ok\n999  forged  read,write  any';
    assertCleanFailure(
      await runCli(['keys', 'create', '--name', forged, ...db()]),
      2,
      /--name must not contain control characters/,
    );
    // A NUL cannot be passed as an argument at all (the OS ends the string there): see the import test.
    for (const name of ['tab\there', 'bell\u0007', 'esc\u001b[2J', 'c1\u009b']) {
      assertCleanFailure(
        await runCli(['topics', 'add', '--topic', name, ...db()]),
        2,
        /--topic must not contain control characters/,
      );
    }
    assertCleanFailure(
      await runCli(['topics', 'add', '--topic', 'Fine', '--notes', 'soh\u0001', ...db()]),
      2,
      /--notes/,
    );
    assert.deepEqual(await tableRows(database.url, 'api_keys'), keysBefore);
    assert.deepEqual(await tableRows(database.url, 'topics'), topicsBefore);
  });
});

for (const kind of DATABASES) {
  describe(`control characters and import formats in the CLI on ${kind.name}`, () => {
    let database: TestDatabase;
    let dir: string;
    const db = () => ['--database', database.url];
    const listTopics = () => runCliJson<ListedTopic[]>(['topics', 'list', ...db()]);
    const listKeys = () => runCliJson<unknown[]>(['keys', 'list', ...db()]);
    let files = 0;
    function writeFile(content: string | Buffer): string {
      const path = join(dir, `topics-${files++}.json`);
      writeFileSync(path, content);
      return path;
    }

    before(async () => {
      database = await kind.create();
      dir = mkdtempSync(join(tmpdir(), 'deskgate-cli-controls-'));
      await withStore(database.url, async () => {}); // a migrated database
    });
    after(async () => {
      rmSync(dir, { recursive: true, force: true });
      await database?.drop();
    });

    test('topics import refuses a NUL or another control in a name (exit 1, nothing imported)', async () => {
      const before = await tableRows(database.url, 'topics');
      for (const topic of ['with\u0000nul', 'line\nbreak']) {
        const file = writeFile(
          JSON.stringify([
            { parent: 0, ispublic: 1, sort: 0, topic: 'Clean one', notes: '' },
            { parent: 0, ispublic: 1, sort: 0, topic, notes: '' },
          ]),
        );
        assertCleanFailure(
          await runCli(['topics', 'import', file, ...db()]),
          1,
          /topic 2, field topic: must not contain control characters; nothing was imported/,
        );
      }
      assert.deepEqual(await tableRows(database.url, 'topics'), before);
    });

    test('names stored with controls (before this check) are printed escaped: no forged rows', async () => {
      await withStore(database.url, async (store) => {
        await store.data(apiKeys).createApiKey({
          name: 'evil\n999  forged-key  read,write  any',
          scopes: ['read'],
          allowIps: [],
          keyHash: hashApiKey('ABCDEF0123456789ABCDEF0123456789'),
        });
        await insertTopics({ store }, [
          {
            parentId: 0,
            isPublic: true,
            sort: 0,
            name: 'evil\r\n4242  0  yes  0  forged-topic\u001b[31m',
            notes: '',
          },
        ]);
      });
      const keys = await runCliText(['keys', 'list', ...db()]);
      assert.equal(keys.trimEnd().split('\n').length, 1 + (await listKeys()).length);
      assert.match(keys, /evil\\u\{0a\}999 {2}forged-key/);
      const topics = await runCliText(['topics', 'list', ...db()]);
      assert.equal(topics.trimEnd().split('\n').length, 1 + (await listTopics()).length);
      assert.match(topics, /evil\\u\{0d\}\\u\{0a\}4242/);
      assert.ok(!topics.includes('\u001b'), 'no raw escape sequence reaches the terminal');
    });

    test('topics import reads UTF-8 with a byte-order mark, and notes null or absent as none', async () => {
      const json = JSON.stringify([
        { id: 900, parent: 0, ispublic: 1, sort: 0, topic: 'Exported with BOM', notes: null },
        { parent: 900, ispublic: '1', sort: '1', topic: 'Notes absent, ünïcode' },
        { parent: 900, ispublic: 0, sort: 2, topic: 'Notes kept', notes: 'two\nlines\tand a tab' },
      ]);
      const file = writeFile(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(json)]));
      const imported = await runCliJson<ListedTopic[]>(['topics', 'import', file, ...db()]);
      assert.deepEqual(
        imported.map((t) => [t.topic, t.notes]),
        [
          ['Exported with BOM', ''],
          ['Notes absent, ünïcode', ''],
          ['Notes kept', 'two\nlines\tand a tab'],
        ],
      );
    });
  });
}
