import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { insertTopicsOfKind, listTopics } from '../../../test/helpers/data-setup.ts';
import { describeEachDatabaseKind } from '../../../test/helpers/each-database.ts';
import { call, type Reply } from '../../../test/helpers/http.ts';
import { useKindServer } from '../../../test/helpers/kind-server.ts';
import { type TestServer, useTestServer } from '../../../test/helpers/test-server.ts';
import { assertTopicRecord } from '../../../test/helpers/topic-record.ts';

interface TopicsData {
  total: number;
  topics: Record<string, string>[];
}

function topicsOf(reply: Reply): TopicsData {
  assert.equal(reply.status, 200, reply.text);
  assert.equal(reply.body?.status, 'Success');
  const data = reply.body?.data as TopicsData;
  assert.equal(data.total, data.topics.length);
  return data;
}

describeEachDatabaseKind('topics/all', (database) => {
  const own = database.kind !== 'osticket';
  const server = useTestServer(() => ({ database: database.url, env: database.env, ownKey: own }));
  const publicOnly = useTestServer(() => ({
    database: database.url,
    env: { ...database.env, DESKGATE_PUBLIC_TOPICS_ONLY: 'true' },
    ownKey: own,
  }));
  let key: string;

  before(async () => {
    key = database.osticket?.readKey.key ?? (await server.createKey({ scopes: ['read'] })).key;
    // The defaults (ids 1, 2, 10, 11; osTicket's reference rows add 12–15) and a few more, sorts
    // chosen against id order.
    await insertTopicsOfKind(database, server, [
      { id: 20, parentId: 0, isPublic: false, sort: 0, name: 'Staff Only', notes: '' },
      { id: 21, parentId: 0, isPublic: true, sort: 9, name: 'Zebra Last', notes: 'z' },
      { id: 22, parentId: 0, isPublic: true, sort: 1, name: 'Second', notes: '' },
      { id: 23, parentId: 10, isPublic: true, sort: 0, name: 'Printer', notes: 'jams' },
    ]);
  });

  const list = (body: Record<string, unknown>, target: TestServer = server, apikey = key) =>
    call(target.url, {
      headers: { apikey },
      body: { query: 'topics', condition: 'all', ...body },
    });

  test('without parameters: every topic, in sort then id order, values as strings', async () => {
    const { topics, total } = topicsOf(await list({}));
    // What the help desk still offers (osTicket's disabled and archived topics are left out).
    const sorted = (await listTopics(server)).filter((topic) => topic.isActive);
    assert.equal(total, sorted.length);
    const expected = [...sorted]
      .sort((a, b) => a.sort - b.sort || a.id - b.id)
      .map((topic) => String(topic.id));
    assert.deepEqual(
      topics.map((topic) => topic.id),
      expected,
    );
    assert.deepEqual(topics.at(-1), {
      ...topics.at(-1),
      id: '21',
      parent: '0',
      ispublic: '1',
      sort: '9',
      topic: 'Zebra Last',
      notes: 'z',
    });
    for (const topic of topics) assertTopicRecord(topic);
    // Private topics are listed: ispublic tells the caller.
    assert.equal(topics.find((topic) => topic.id === '20')?.ispublic, '0');
  });

  test('parameters {} and other top-level fields are the same as none', async () => {
    const none = topicsOf(await list({}));
    assert.deepEqual(
      topicsOf(await list({ parameters: {}, sort: 'whatever', limit: 1 })).topics,
      none.topics,
    );
  });

  test('parent 0 keeps top-level topics; parent N its children; digits as strings too', async () => {
    const top = topicsOf(await list({ parameters: { parent: 0 } }));
    assert.ok(top.topics.length > 0);
    assert.ok(top.topics.every((topic) => topic.parent === '0'));
    assert.ok(!top.topics.some((topic) => topic.id === '23' || topic.id === '11'));
    const children = topicsOf(await list({ parameters: { parent: '10' } }));
    const expected = (await listTopics(server))
      .filter((topic) => topic.parentId === 10 && topic.isActive)
      .sort((a, b) => a.sort - b.sort || a.id - b.id)
      .map((topic) => String(topic.id));
    assert.ok(expected.includes('23') && expected.includes('11'));
    assert.deepEqual(
      children.topics.map((topic) => topic.id),
      expected,
    );
  });

  test('no topic matches → 200 with total 0 and an empty list', async () => {
    assert.deepEqual(topicsOf(await list({ parameters: { parent: 999 } })), {
      total: 0,
      topics: [],
    });
  });

  test('DESKGATE_PUBLIC_TOPICS_ONLY=true leaves private topics out', async () => {
    const { topics } = topicsOf(await list({}, publicOnly));
    assert.ok(topics.length > 0);
    assert.ok(topics.every((topic) => topic.ispublic === '1'));
    assert.ok(!topics.some((topic) => topic.id === '20'));
  });

  test('bad parameters → 400 invalid_parameters naming them, not a list', async () => {
    for (const parameters of [{ parent: -1 }, { parent: 'x' }, { parent: 2147483648 }, { id: 1 }]) {
      const reply = await list({ parameters });
      assert.equal(reply.status, 400, reply.text);
      assert.equal(reply.body?.code, 'invalid_parameters');
      assert.match(String(reply.body?.errors?.[0]?.field), /^parameters\.(parent|id)$/);
    }
    for (const parameters of [null, [], 'parent=0']) {
      const reply = await list({ parameters });
      assert.equal(reply.status, 400);
      assert.equal(reply.body?.code, 'invalid_parameters');
    }
  });

  test('GET only (405 with Allow), and the read scope (403; every osTicket key reads topics)', async () => {
    const post = await call(server.url, {
      method: 'POST',
      headers: { apikey: key },
      body: { query: 'topics', condition: 'all' },
    });
    assert.equal(post.status, 405);
    assert.equal(post.headers.allow, 'GET');
    if (!own) return;
    const { key: writeOnly } = await server.createKey({ scopes: ['write', 'users:read'] });
    const noRead = await list({}, server, writeOnly);
    assert.equal(noRead.status, 403);
    assert.equal(noRead.body?.code, 'insufficient_scope');
  });

  // Disabled and archived topics: osTicket's help_topic.flags, which deskgate's schema lacks.
  if (!own) {
    describe("osTicket's reference topics", () => {
      const inactiveToo = useKindServer(database, { DESKGATE_INACTIVE_TOPICS: 'true' });
      /** The ids of osTicket's reference rows (1–15), leaving out the suite's (20–23). */
      const reference = (topics: Record<string, string>[]) =>
        topics.map((topic) => topic.id).filter((id) => Number(id) < 20);

      test('the active ones from help_topic.flags, in sort then id order, as stored', async () => {
        const { topics, total } = topicsOf(await list({}));
        // 13 is disabled (flags 0) and 14 archived (flags 4): osTicket no longer offers them.
        assert.deepEqual(reference(topics), ['15', '2', '1', '12', '10', '11']);
        assert.equal(total, 6 + 4);
        assert.deepEqual(
          topics.find((topic) => topic.id === '15'),
          {
            id: '15',
            parent: '0',
            ispublic: '1',
            sort: '0',
            topic: 'Café Ünïcode ✓',
            notes: 'Notes with <b>html</b> &amp; ampersand',
            created: '2026-11-22 13:14:17',
            updated: '2026-11-22 13:14:17',
          },
        );
        assert.equal(topics.find((topic) => topic.id === '12')?.ispublic, '0');
        assert.deepEqual(reference(topicsOf(await list({ parameters: { parent: 10 } })).topics), [
          '11',
        ]);
      });

      test('DESKGATE_INACTIVE_TOPICS=true lists disabled and archived topics too', async () => {
        const { topics } = topicsOf(await list({}, inactiveToo));
        assert.deepEqual(reference(topics), ['15', '14', '2', '1', '12', '13', '10', '11']);
        assert.equal(topics.find((topic) => topic.id === '13')?.notes, '');
      });
    });
  }
});
