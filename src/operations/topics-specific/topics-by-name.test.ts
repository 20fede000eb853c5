import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { insertTopicsOfKind } from '../../../test/helpers/data-setup.ts';
import { describeEachDatabaseKind } from '../../../test/helpers/each-database.ts';
import { call, type Reply } from '../../../test/helpers/http.ts';
import { useKindServer } from '../../../test/helpers/kind-server.ts';
import type { TestServer } from '../../../test/helpers/test-server.ts';
import { foldTopicName, topicNameContains } from './topic-name-match.ts';

describe('topic name matching', () => {
  test('ignores case and accents, keeps everything else', () => {
    assert.equal(foldTopicName('Café Ünïcode ✓'), 'cafe unicode ✓');
    assert.ok(topicNameContains('Café Ünïcode ✓', 'CAFE'));
    assert.ok(topicNameContains('Cafe', 'café'));
    assert.ok(topicNameContains('Ÿ São Paulo', 'sao p'));
    assert.ok(topicNameContains('ﬁnance', 'fin'));
    assert.ok(!topicNameContains('Feedback', 'feed back'));
    assert.ok(topicNameContains('Report a Problem', 'PROBLEM'));
  });
});

function topicOf(reply: Reply): Record<string, string> {
  assert.equal(reply.status, 200, reply.text);
  const data = reply.body?.data as { total: number; topic: Record<string, string> };
  assert.equal(data.total, 1);
  return data.topic;
}

describeEachDatabaseKind('topics/specific by name', (database) => {
  const server = useKindServer(database);
  const publicOnly = useKindServer(database, { DESKGATE_PUBLIC_TOPICS_ONLY: 'true' });
  let key: string;

  // osTicket's reference rows have topic 30's name as topic 15, and help_topic's names are unique:
  // there 15 stands for 30, moved to 30's sort.
  const own = database.kind !== 'osticket';
  const cafe = own ? '30' : '15';

  before(async () => {
    const { osticket } = database;
    if (osticket) {
      key = osticket.readKey.key;
      await osticket.query(`UPDATE ${osticket.prefix}help_topic SET sort = 5 WHERE topic_id = 15`);
    } else {
      ({ key } = await server.createKey({ scopes: ['read'] }));
    }
    const topics = [
      { id: 30, parentId: 0, isPublic: true, sort: 5, name: 'Café Ünïcode ✓', notes: '' },
      { id: 31, parentId: 0, isPublic: true, sort: 4, name: 'CAFE corner', notes: '' },
      { id: 32, parentId: 0, isPublic: false, sort: 1, name: 'Private café', notes: '' },
      { id: 33, parentId: 0, isPublic: true, sort: 5, name: 'Cafeteria', notes: '' },
      { id: 34, parentId: 0, isPublic: true, sort: 7, name: '100% _wild_ card', notes: '' },
    ];
    await insertTopicsOfKind(
      database,
      server,
      topics.filter((topic) => own || topic.id !== 30),
    );
  });

  const byName = (name: unknown, target: TestServer = server) =>
    call(target.url, {
      headers: { apikey: key },
      body: { query: 'topics', condition: 'specific', sort: 'name', parameters: { name } },
    });

  test('contains, case- and accent-insensitively, the same on every database', async () => {
    // osTicket's columns are utf8mb3, its collation case- and accent-insensitive: the same answers.
    for (const name of [
      'ünïcode',
      'UNICODE ✓',
      'café ü',
      'cafe unicode',
      'CAFÉ ÜNÏ',
      'ünicode ✓',
    ]) {
      assert.equal(topicOf(await byName(name)).id, cafe, name);
    }
    assert.equal(topicOf(await byName('inquiry')).topic, 'General Inquiry');
    assert.equal(topicOf(await byName('report a problem')).topic, 'Report a Problem');
  });

  test('the first match in sort, then id order', async () => {
    // "cafe" matches 32 (sort 1), 31 (sort 4), 30 (or 15) and 33 (sort 5): the private one first.
    assert.equal(topicOf(await byName('cafe')).id, '32');
    assert.equal(topicOf(await byName('CAFÉ', publicOnly)).id, '31');
    // Same sort: the lower id.
    assert.equal(topicOf(await byName('caf', publicOnly)).id, '31');
    assert.equal(topicOf(await byName('cafe', publicOnly)).id, '31');
    assert.equal(topicOf(await byName('Cafet')).id, '33');
  });

  test('% and _ are text, not SQL wildcards', async () => {
    assert.equal(topicOf(await byName('100%')).id, '34');
    assert.equal(topicOf(await byName('_wild_')).id, '34');
    const none = await byName('1_0');
    assert.equal(none.status, 204);
  });

  test('no match, or only a private one with public topics only → 204 not_found', async () => {
    for (const [name, target] of [
      ['no such topic', server],
      ['private', publicOnly],
    ] as const) {
      const reply = await byName(name, target);
      assert.equal(reply.status, 204, reply.text);
      assert.equal(reply.text, '');
      assert.equal(reply.headers['x-error-code'], 'not_found');
    }
  });

  test('name must be a string of 1 to 128 characters; id is not a name parameter', async () => {
    for (const name of ['', 'x'.repeat(129), 7, null, ['cafe'], undefined, 'a\u0000b']) {
      const reply = await byName(name);
      assert.equal(reply.status, 400, reply.text);
      assert.equal(reply.body?.code, 'invalid_parameters');
      assert.equal(reply.body?.errors?.[0]?.field, 'parameters.name');
    }
    // 128 characters is still a name (that no topic contains).
    assert.equal((await byName('é'.repeat(128))).status, 204);
    const withId = await call(server.url, {
      headers: { apikey: key },
      body: { query: 'topics', condition: 'specific', sort: 'name', parameters: { id: 1 } },
    });
    assert.equal(withId.status, 400);
    assert.deepEqual(withId.body?.errors?.map((e) => e.field).sort(), [
      'parameters.id',
      'parameters.name',
    ]);
  });

  // Disabled and archived topics: osTicket's help_topic.flags, which deskgate's schema lacks.
  if (!own) {
    describe("osTicket's disabled and archived topics", () => {
      const inactiveToo = useKindServer(database, { DESKGATE_INACTIVE_TOPICS: 'true' });

      test('only active topics match; DESKGATE_INACTIVE_TOPICS=true finds the others too', async () => {
        assert.equal(topicOf(await byName('access')).id, '11');
        assert.equal((await byName('archived')).status, 204);
        assert.equal((await byName('old disabled')).status, 204);
        assert.equal(topicOf(await byName('archived', inactiveToo)).id, '14');
      });
    });
  }
});
