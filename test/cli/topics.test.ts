import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { runCli } from '../helpers/cli.ts';
import { migrateDatabase, tableRows } from '../helpers/cli-data.ts';
import { DATABASES, type TestDatabase } from '../helpers/databases.ts';
import { describeWithDatabase, SQLITE } from '../helpers/each-database.ts';
import { assertCleanFailure, runCliJson, runCliText } from './cli-assertions.ts';

interface ListedTopic {
  id: number;
  parent: number;
  ispublic: number;
  sort: number;
  topic: string;
  notes: string;
  created: string;
  updated: string;
}

const TOPIC_FIELDS = ['created', 'id', 'ispublic', 'notes', 'parent', 'sort', 'topic', 'updated'];

for (const kind of DATABASES) {
  describe(`deskgate topics on ${kind.name}`, () => {
    let database: TestDatabase;
    let dir: string;
    const db = () => ['--database', database.url];
    const listTopics = () => runCliJson<ListedTopic[]>(['topics', 'list', ...db()]);
    const storedTopics = () => tableRows(database.url, 'topics');
    let fileCount = 0;
    function writeTopicsFile(content: unknown): string {
      const path = join(dir, `topics-${++fileCount}.json`);
      writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content));
      return path;
    }

    before(async () => {
      database = await kind.create();
      // Only serve and migrate create deskgate's tables; every other command expects them.
      await migrateDatabase(database.url);
      dir = mkdtempSync(join(tmpdir(), 'deskgate-topics-'));
    });
    after(async () => {
      rmSync(dir, { recursive: true, force: true });
      await database.drop();
    });

    test('topics list shows the default topics, as JSON and as a table', async () => {
      const [topics, text] = await Promise.all([
        listTopics(),
        runCliText(['topics', 'list', ...db()]),
      ]);
      for (const topic of topics) assert.deepEqual(Object.keys(topic).sort(), TOPIC_FIELDS);
      const byName = new Map(topics.map((t) => [t.topic, t]));
      assert.equal(byName.get('General Inquiry')?.parent, 0);
      assert.equal(byName.get('Feedback')?.parent, 0);
      assert.equal(byName.get('Access Issue')?.parent, byName.get('Report a Problem')?.id);
      for (const name of ['General Inquiry', 'Feedback', 'Report a Problem', 'Access Issue']) {
        assert.ok(text.includes(name), `${name} missing from:\n${text}`);
      }
    });

    test('topics add --json creates a top-level public topic and prints it', async () => {
      const added = await runCliJson<ListedTopic>(['topics', 'add', '--topic', 'Billing', ...db()]);
      assert.deepEqual(Object.keys(added).sort(), TOPIC_FIELDS);
      assert.equal(added.topic, 'Billing');
      assert.equal(added.parent, 0);
      assert.equal(added.ispublic, 1);
      assert.equal(added.notes, '');
      assert.deepEqual(
        (await listTopics()).find((t) => t.id === added.id),
        added,
      );
    });

    test('topics add takes --parent, --private, --sort and --notes', async () => {
      const added = await runCliJson<ListedTopic>([
        'topics',
        'add',
        '--topic',
        'Password Reset',
        '--parent',
        '10',
        '--private',
        '--sort',
        '7',
        '--notes',
        'Locked out of an account',
        ...db(),
      ]);
      const stored = (await listTopics()).find((t) => t.id === added.id);
      assert.equal(stored?.topic, 'Password Reset');
      assert.equal(stored?.parent, 10);
      assert.equal(stored?.ispublic, 0);
      assert.equal(stored?.sort, 7);
      assert.equal(stored?.notes, 'Locked out of an account');
    });

    test('topics add with an unknown parent exits 1 and adds nothing', async () => {
      const before = await storedTopics();
      const result = await runCli([
        'topics',
        'add',
        '--topic',
        'Orphan',
        '--parent',
        '9999',
        ...db(),
      ]);
      assertCleanFailure(result, 1, /9999/);
      assertCleanFailure(
        await runCli(['topics', 'add', '--topic', 'Orphan', '--parent', '9999', ...db(), '--json']),
        1,
      );
      assert.deepEqual(await storedTopics(), before);
    });

    test('topics import FILE adds every topic; numbers and digit strings are both accepted', async () => {
      const file = writeTopicsFile([
        { id: 500, parent: 0, ispublic: 1, sort: 1, topic: 'Hardware', notes: 'Devices' },
        { id: '501', parent: '500', ispublic: '0', sort: '2', topic: 'Printers', notes: '' },
        { parent: 500, ispublic: 1, sort: 3, topic: 'Laptops', notes: 'Portable' },
      ]);
      const imported = await runCliJson<ListedTopic[]>(['topics', 'import', file, ...db()]);
      assert.equal(imported.length, 3);
      const stored = await listTopics();
      const hardware = stored.find((t) => t.id === 500);
      assert.equal(hardware?.topic, 'Hardware');
      assert.equal(hardware?.notes, 'Devices');
      const printers = stored.find((t) => t.id === 501);
      assert.equal(printers?.topic, 'Printers');
      assert.equal(printers?.parent, 500);
      assert.equal(printers?.ispublic, 0);
      assert.equal(printers?.sort, 2);
      const laptops = stored.find((t) => t.topic === 'Laptops');
      assert.equal(laptops?.parent, 500);
      assert.equal(laptops?.sort, 3);

      const text = await runCliText([
        'topics',
        'import',
        writeTopicsFile([
          { parent: 0, ispublic: 1, sort: 0, topic: 'Imported as text', notes: '' },
        ]),
        ...db(),
      ]);
      assert.match(text, /1/);
      assert.ok((await listTopics()).some((t) => t.topic === 'Imported as text'));
    });

    test('topics import is all or nothing: any problem exits 1 and imports nothing', async () => {
      const good = (name: string, extra: Record<string, unknown> = {}) => ({
        parent: 0,
        ispublic: 1,
        sort: 0,
        topic: name,
        notes: '',
        ...extra,
      });
      const files: [string, string][] = [
        [
          'one bad entry at the end',
          writeTopicsFile([good('Bad batch A'), good('Bad batch B'), good('', { ispublic: 2 })]),
        ],
        [
          'a wrongly typed field',
          writeTopicsFile([good('Bad batch C'), good('Bad batch D', { sort: 'first' })]),
        ],
        [
          'a duplicate id in the file',
          writeTopicsFile([good('Bad batch E', { id: 700 }), good('Bad batch F', { id: 700 })]),
        ],
        [
          'an id already taken',
          writeTopicsFile([good('Bad batch G', { id: 701 }), good('Bad batch H', { id: 1 })]),
        ],
        [
          'a missing parent',
          writeTopicsFile([good('Bad batch I'), good('Bad batch J', { parent: 98765 })]),
        ],
        [
          'a field the interface does not define',
          writeTopicsFile([good('Bad batch K', { colour: 'red' })]),
        ],
        ['invalid JSON', writeTopicsFile('[{"topic": "Bad batch L",')],
        ['an object instead of an array', writeTopicsFile(good('Bad batch M'))],
      ];
      const before = await storedTopics();
      // Batches of names of their own, side by side: none waits on another's lock for long.
      const results = await Promise.all(
        files.map(([, file]) => runCli(['topics', 'import', file, ...db()])),
      );
      results.forEach((result, i) => {
        const label = files[i]?.[0];
        assert.equal(result.code, 1, `${label}: expected exit 1, got ${result.code}`);
        assertCleanFailure(result, 1);
        // Refused for its own problem, not for a busy database.
        assert.doesNotMatch(result.stderr, /locked|busy|unavailable|timed? ?out/i, label);
      });
      // Every batch has names of its own: one look at the end shows whether any part of one landed.
      assert.deepEqual(await storedTopics(), before);
    });
  });
}

// Usage errors and a missing file, refused before the database is opened, and the text output of
// topics add (the same insert as --json, which every database runs above).
describeWithDatabase('deskgate topics: argument checks and text output', SQLITE, (database) => {
  let dir: string;
  const db = () => ['--database', database.url];
  const listTopics = () => runCliJson<ListedTopic[]>(['topics', 'list', ...db()]);
  const storedTopics = () => tableRows(database.url, 'topics');

  before(async () => {
    await migrateDatabase(database.url);
    dir = mkdtempSync(join(tmpdir(), 'deskgate-topics-'));
  });
  after(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  test('topics add without --json says what it added', async () => {
    const text = await runCliText(['topics', 'add', '--topic', 'Shipping', ...db()]);
    assert.match(text, /Shipping/);
    assert.ok((await listTopics()).some((t) => t.topic === 'Shipping'));
  });

  test('topics add with bad usage exits 2', async () => {
    const before = await storedTopics();
    // Usage errors, found before the database is opened: side by side.
    const [noTopic, badSort, badParent] = await Promise.all([
      runCli(['topics', 'add', ...db()]),
      runCli(['topics', 'add', '--topic', 'X', '--sort', 'abc', ...db()]),
      runCli(['topics', 'add', '--topic', 'X', '--parent', 'ten', ...db(), '--json']),
    ]);
    assertCleanFailure(noTopic, 2, /--topic/);
    // A flag is text: "a whole number", not the HTTP interface's "a JSON number" (issue 37).
    assertCleanFailure(
      badSort,
      2,
      /^deskgate: --sort must be a whole number from 0 to 2147483647$/,
    );
    assertCleanFailure(badParent, 2, /^deskgate: --parent must be a whole number from 0 to \d+$/);
    assert.deepEqual(await storedTopics(), before);
  });

  test('topics import of a missing FILE exits 1 naming it, as text and with --json; imports nothing', async () => {
    const missing = join(dir, 'does-not-exist.json');
    const before = await storedTopics();
    const result = await runCli(['topics', 'import', missing, ...db()]);
    assert.equal(result.code, 1, `a missing file: expected exit 1, got ${result.code}`);
    assertCleanFailure(result, 1);
    assert.doesNotMatch(result.stderr, /locked|busy|unavailable|timed? ?out/i, 'a missing file');
    assert.deepEqual(await storedTopics(), before);
    assertCleanFailure(
      await runCli(['topics', 'import', missing, ...db(), '--json']),
      1,
      /does-not-exist\.json/,
    );
  });

  test('topics import without a FILE exits 2', async () => {
    assertCleanFailure(await runCli(['topics', 'import', ...db()]), 2);
  });
});
