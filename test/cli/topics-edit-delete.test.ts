import assert from 'node:assert/strict';
import { test } from 'node:test';
import { runCli } from '../helpers/cli.ts';
import { addTopic, type JsonTopic, tableRows } from '../helpers/cli-data.ts';
import { describeEachDatabase, describeWithDatabase, SQLITE } from '../helpers/each-database.ts';
import { topicBody } from '../helpers/http.ts';
import { useTestServer } from '../helpers/test-server.ts';
import { addUser, ticketAddBody } from '../helpers/tickets.ts';
import { assertCleanFailure, runCliJson, runCliText } from './cli-assertions.ts';

describeEachDatabase('deskgate topics edit and delete', (database) => {
  const server = useTestServer({ database });
  const db = () => ['--database', database.url];
  const add = (topic: string, options: Omit<Parameters<typeof addTopic>[1], 'topic'> = {}) =>
    addTopic(database.url, { topic, ...options });
  const lookUp = async (id: number) => {
    const reply = await server.request(topicBody(id));
    return {
      status: reply.status,
      topic: (reply.body?.data as { topic?: Record<string, string> })?.topic,
    };
  };
  // The rows themselves: a refused command must leave every field of every topic as it was.
  const storedTopics = () => tableRows(database.url, 'topics');

  test('topics edit changes only the fields given; updated moves on; HTTP answers the new state', async () => {
    const parent = await add('Edit Parent');
    const topic = await add('Before Edit', { sort: 3, notes: 'kept' });
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    const edited = await runCliJson<JsonTopic>([
      'topics',
      'edit',
      String(topic.id),
      '--topic',
      'After Edit',
      '--parent',
      String(parent.id),
      '--private',
      ...db(),
    ]);
    assert.deepEqual(
      { ...edited, updated: undefined },
      { ...topic, topic: 'After Edit', parent: parent.id, ispublic: 0, updated: undefined },
    );
    assert.ok(edited.updated > topic.updated, `${edited.updated} after ${topic.updated}`);
    assert.equal(edited.created, topic.created);
    const seen = await lookUp(topic.id);
    assert.equal(seen.status, 200);
    assert.equal(seen.topic?.topic, 'After Edit');
    assert.equal(seen.topic?.parent, String(parent.id));
    assert.equal(seen.topic?.ispublic, '0');

    const again = await runCliJson<JsonTopic>([
      'topics',
      'edit',
      String(topic.id),
      '--public',
      '--sort',
      '9',
      '--notes',
      '',
      '--parent',
      '0',
      ...db(),
    ]);
    assert.deepEqual(
      [again.ispublic, again.sort, again.notes, again.parent, again.topic],
      [1, 9, '', 0, 'After Edit'],
    );
    assert.match(
      await runCliText(['topics', 'edit', String(topic.id), '--sort', '9', ...db()]),
      /Updated topic \d+ "After Edit"/,
      'an edit that changes nothing is still an edit of an existing topic',
    );
  });

  test("topics edit checks the stored topics as topics add does: an unknown topic, a parent, cycle or sibling's name exit 1; nothing changes", async () => {
    const root = await add('Edit Root');
    const child = await add('Edit Child', { parent: root.id });
    const sibling = await add('Edit Sibling', { parent: root.id });
    const before = await storedTopics();
    const id = String(child.id);
    for (const [target, args, mentions] of [
      ['999999', ['--sort', '1'], /no topic with id 999999/],
      [id, ['--parent', '999999'], /parent 999999 does not exist/],
      [id, ['--parent', id], /itself or one of its subtopics/],
      [String(root.id), ['--parent', id], /itself or one of its subtopics/],
      [id, ['--topic', sibling.topic], /already exists under parent/],
    ] as [string, string[], RegExp][]) {
      assertCleanFailure(
        await runCli(['topics', 'edit', target, ...args, ...db(), '--json']),
        1,
        mentions,
      );
    }
    assert.deepEqual(await storedTopics(), before);
  });

  test('topics delete: a leaf goes; a topic with subtopics is refused unless --with-children', async () => {
    const root = await add('Delete Root');
    const child = await add('Delete Child', { parent: root.id });
    const grandchild = await add('Delete Grandchild', { parent: child.id });
    const leaf = await add('Delete Leaf');
    const before = await storedTopics();

    assertCleanFailure(
      await runCli(['topics', 'delete', String(root.id), ...db()]),
      1,
      new RegExp(`2 subtopic\\(s\\) \\(${child.id}, ${grandchild.id}\\).*--with-children`),
    );
    assert.deepEqual(await storedTopics(), before, 'nothing deleted');
    assertCleanFailure(await runCli(['topics', 'delete', '999999', ...db()]), 1, /999999/);

    assert.match(
      await runCliText(['topics', 'delete', String(leaf.id), ...db()]),
      new RegExp(`Deleted topic ${leaf.id} "Delete Leaf"`),
    );
    assert.equal((await lookUp(leaf.id)).status, 204);

    const result = await runCliJson<{ deleted: number[] }>([
      'topics',
      'delete',
      String(root.id),
      '--with-children',
      ...db(),
    ]);
    assert.deepEqual(result, { deleted: [root.id, child.id, grandchild.id] });
    for (const id of [root.id, child.id, grandchild.id])
      assert.equal((await lookUp(id)).status, 204, `topic ${id} still answered`);
    assert.equal((await storedTopics()).length, before.length - 4);
  });

  test('topics delete keeps a topic that a ticket uses, also below --with-children', async () => {
    const root = await add('Ticketed Root');
    const used = await add('Ticketed Child', { parent: root.id });
    const userId = await addUser(server.store);
    const ticket = await server.request(ticketAddBody(userId, { topic_id: used.id }), {
      method: 'POST',
    });
    assert.equal(ticket.status, 200, ticket.text);
    const before = await storedTopics();
    for (const args of [[String(used.id)], [String(root.id), '--with-children']])
      assertCleanFailure(
        await runCli(['topics', 'delete', ...args, ...db()]),
        1,
        new RegExp(`topic ${used.id} is the help topic of 1 ticket`),
      );
    assert.deepEqual(await storedTopics(), before);
  });
});

// Usage errors, refused before the database is opened: SQLite's database shows nothing changed.
describeWithDatabase('deskgate topics edit and delete: argument checks', SQLITE, (database) => {
  useTestServer({ database });
  const db = () => ['--database', database.url];
  // The rows themselves: a refused command must leave every field of every topic as it was.
  const storedTopics = () => tableRows(database.url, 'topics');

  test('topics edit with bad values, or nothing to change, exits 2; nothing changes', async () => {
    const root = await addTopic(database.url, { topic: 'Edit Root' });
    const child = await addTopic(database.url, { topic: 'Edit Child', parent: root.id });
    const before = await storedTopics();
    const id = String(child.id);
    for (const [args, mentions] of [
      [[], /nothing to change/],
      [['--topic', ''], /--topic/],
      [['--topic', 'x'.repeat(129)], /--topic/],
      [['--topic', 'a\u0007b'], /--topic/],
      [['--sort', '-1'], /--sort/],
      [['--sort', 'abc', '--json'], /--sort/],
      [['--parent', 'x'], /--parent/],
      [['--private', '--public'], /--private/],
      [['--bogus', '1'], /bogus/],
    ] as [string[], RegExp][]) {
      assertCleanFailure(await runCli(['topics', 'edit', id, ...args, ...db()]), 2, mentions);
    }
    assertCleanFailure(await runCli(['topics', 'edit', 'abc', '--sort', '1', ...db()]), 2, /ID/);
    assert.deepEqual(await storedTopics(), before);
  });

  test('topics delete with a bad ID exits 2; nothing deleted', async () => {
    // The default topics are top-level (parent 0): a delete of "0" must not take them.
    const before = await storedTopics();
    assertCleanFailure(await runCli(['topics', 'delete', '0', ...db()]), 2, /ID/);
    assert.deepEqual(await storedTopics(), before);
  });
});
