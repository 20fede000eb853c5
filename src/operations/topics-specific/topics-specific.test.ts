import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { assertError, assertNoContent } from '../../../test/helpers/assertions.ts';
import { findTopicById, insertTopicsOfKind } from '../../../test/helpers/data-setup.ts';
import { describeEachDatabaseKind } from '../../../test/helpers/each-database.ts';
import { call, type Reply, topicBody } from '../../../test/helpers/http.ts';
import { useTestServer } from '../../../test/helpers/test-server.ts';
import { assertTopicRecord } from '../../../test/helpers/topic-record.ts';
import type { Topic } from '../../data/topics/topic.ts';

const TIMESTAMP = /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/;

function topicOf(reply: Reply): Record<string, unknown> {
  const data = reply.body?.data as { total: number; topic: Record<string, unknown> };
  assert.equal(data.total, 1);
  return data.topic;
}

describeEachDatabaseKind('topics/specific', (database) => {
  const own = database.kind !== 'osticket';
  /** A server of this kind; `env` over the kind's own. */
  const serverOf = (env: Record<string, string> = {}) =>
    useTestServer(() => ({
      database: database.url,
      env: { ...database.env, ...env },
      scopes: ['read'],
      ownKey: own,
    }));
  const server = serverOf();
  let key: string;
  let hidden: Topic;
  let child: Topic;

  before(async () => {
    key = database.osticket?.readKey.key ?? server.key;
    [hidden, child] = (await insertTopicsOfKind(database, server, [
      { parentId: 0, isPublic: false, sort: 3, name: 'Staff Only', notes: '' },
      { parentId: 10, isPublic: true, sort: 7, name: 'Printer', notes: 'Paper jams' },
    ])) as [Topic, Topic];
  });

  function lookUp(id: unknown, extra: Record<string, unknown> = {}): Promise<Reply> {
    return call(server.url, { headers: { apikey: key }, body: { ...topicBody(id), ...extra } });
  }

  test('a GET with a JSON body returns the topic, every value a string', async () => {
    const reply = await lookUp(11);
    assert.equal(reply.status, 200);
    assert.equal(reply.headers['content-type'], 'application/json; charset=utf-8');
    assert.equal(reply.body?.status, 'Success');
    assert.equal(typeof reply.body?.time, 'number');
    const topic = topicOf(reply);
    assertTopicRecord(topic);
    assert.equal(topic.id, '11');
    assert.equal(topic.parent, '10');
    assert.equal(topic.ispublic, '1');
    // osTicket's reference help desk sorts its topics; deskgate's own schema starts them at 0.
    assert.equal(topic.sort, own ? '0' : String((await findTopicById(server, 11))?.sort));
    assert.equal(topic.topic, 'Access Issue');
    assert.equal(topic.notes, 'Report an inability access a physical or virtual asset');
    assert.match(String(topic.created), TIMESTAMP);
    assert.match(String(topic.updated), TIMESTAMP);
  });

  test('the id may be a JSON integer or a string of digits', async () => {
    const asNumber = await lookUp(child.id);
    const asString = await lookUp(String(child.id));
    const padded = await lookUp(`00${child.id}`);
    for (const reply of [asNumber, asString, padded]) {
      assert.equal(reply.status, 200, reply.text);
      assert.equal(topicOf(reply).id, String(child.id));
    }
    assert.deepEqual(topicOf(asString), topicOf(asNumber));
  });

  test('the topic is the stored one, field by field', async () => {
    const reply = await lookUp(child.id);
    assert.deepEqual(topicOf(reply), {
      id: String(child.id),
      parent: '10',
      ispublic: '1',
      sort: '7',
      topic: 'Printer',
      notes: 'Paper jams',
      created: child.created,
      updated: child.updated,
    });
  });

  test('a top-level topic has parent "0"; a topic without notes has notes ""', async () => {
    const reply = await lookUp(hidden.id);
    assert.equal(reply.status, 200);
    const topic = topicOf(reply);
    assert.equal(topic.parent, '0');
    assert.equal(topic.notes, '');
    assert.equal(topicOf(await lookUp(1)).parent, '0');
  });

  test('a non-public topic is returned by default, with ispublic "0"', async () => {
    const reply = await lookUp(hidden.id);
    assert.equal(reply.status, 200);
    const topic = topicOf(reply);
    assert.equal(topic.id, String(hidden.id));
    assert.equal(topic.ispublic, '0');
    assert.equal(topic.topic, 'Staff Only');
    assert.equal(topic.sort, '3');
  });

  test('an id that does not exist answers 204 with X-Error-Code and no body', async () => {
    assertNoContent(await lookUp(999));
    assertNoContent(await lookUp('999'));
    // The largest valid id is a lookup, not a validation error.
    assertNoContent(await lookUp(2147483647));
  });

  const invalidIds: [string, unknown][] = [
    ['0', 0],
    ['-1', -1],
    ['2147483648', 2147483648],
    ['"2147483648"', '2147483648'],
    ['1.5', 1.5],
    ['"1.5"', '1.5'],
    ['"12a"', '12a'],
    ['"-1"', '-1'],
    ['" 11"', ' 11'],
    ['"0x1f"', '0x1f'],
    ['""', ''],
    ['"0"', '0'],
    ['true', true],
    ['null', null],
    ['{}', {}],
    ['[]', []],
    ['[11]', [11]],
    ['1e300', 1e300],
  ];
  for (const [label, id] of invalidIds) {
    test(`id ${label} → 400 invalid_parameters naming parameters.id`, async () => {
      const reply = await lookUp(id);
      assertError(reply, 400, 'invalid_parameters', ['parameters.id']);
    });
  }

  test('a missing id → 400 invalid_parameters, "parameters.id is required"', async () => {
    const reply = await call(server.url, {
      headers: { apikey: key },
      body: { query: 'topics', condition: 'specific', parameters: {} },
    });
    assertError(reply, 400, 'invalid_parameters');
    assert.deepEqual(reply.body?.errors, [{ field: 'parameters.id', message: 'is required' }]);
  });

  test('missing or non-object parameters → 400 invalid_parameters', async () => {
    for (const parameters of [undefined, null, 11, '11', [11]]) {
      const reply = await call(server.url, {
        headers: { apikey: key },
        body: { query: 'topics', condition: 'specific', parameters },
      });
      assertError(reply, 400, 'invalid_parameters');
    }
  });

  test('a parameter other than id → 400 invalid_parameters naming it', async () => {
    const reply = await call(server.url, {
      headers: { apikey: key },
      body: { query: 'topics', condition: 'specific', parameters: { id: 11, topic: 'x' } },
    });
    assertError(reply, 400, 'invalid_parameters');
    assert.deepEqual(
      reply.body?.errors?.map((e) => e.field),
      ['parameters.topic'],
    );
    assert.match(String(reply.body?.data), /parameters\.topic/);
  });

  test('sort is optional, and accepted only as "id" or "name"', async () => {
    assert.equal((await lookUp(11, { sort: 'id' })).status, 200);
    const reply = await lookUp(11, { sort: 'title' });
    assertError(reply, 400, 'invalid_request');
    assert.match(String(reply.body?.data), /sort must be "id" or "name"/);
    // sort "name" takes parameters.name, not id.
    const byName = await lookUp(11, { sort: 'name' });
    assertError(byName, 400, 'invalid_parameters');
    // Other top-level fields are ignored.
    assert.equal((await lookUp(11, { limit: 5 })).status, 200);
  });

  test('only GET is allowed → 405 with Allow: GET', async () => {
    for (const method of ['POST', 'PUT']) {
      const reply = await call(server.url, {
        method,
        headers: { apikey: key },
        body: topicBody(11),
      });
      assertError(reply, 405, 'method_not_allowed');
      assert.equal(reply.headers.allow, 'GET');
    }
  });

  test('a key without the read scope → 403 insufficient_scope', async () => {
    // Every osTicket key may read topics.
    if (!own) return;
    const { key: writeOnly } = await server.createKey({ scopes: ['write'] });
    const reply = await call(server.url, { headers: { apikey: writeOnly }, body: topicBody(11) });
    assertError(reply, 403, 'insufficient_scope');
  });

  describe('with DESKGATE_PUBLIC_TOPICS_ONLY=true', () => {
    const publicOnly = serverOf({ DESKGATE_PUBLIC_TOPICS_ONLY: 'true' });

    test('a non-public topic answers 204 as if it did not exist', async () => {
      const reply = await call(publicOnly.url, {
        headers: { apikey: key },
        body: topicBody(hidden.id),
      });
      assertNoContent(reply);
    });

    test('a public topic is still returned', async () => {
      const reply = await call(publicOnly.url, {
        headers: { apikey: key },
        body: topicBody(child.id),
      });
      assert.equal(reply.status, 200);
      assert.equal(topicOf(reply).ispublic, '1');
    });
  });

  describe('with DESKGATE_NOT_FOUND_STATUS=404', () => {
    const notFound404 = serverOf({
      DESKGATE_NOT_FOUND_STATUS: '404',
      DESKGATE_PUBLIC_TOPICS_ONLY: 'true',
    });

    for (const [label, id] of [
      ['a missing topic', 999],
      ['a non-public topic (public topics only)', -1],
    ] as const) {
      test(`${label} → 404 with the full error envelope`, async () => {
        const reply = await call(notFound404.url, {
          headers: { apikey: key },
          body: topicBody(id === -1 ? hidden.id : id),
        });
        assert.equal(reply.status, 404);
        assert.equal(reply.headers['content-type'], 'application/json; charset=utf-8');
        assert.equal(typeof reply.body?.time, 'number');
        assert.deepEqual(
          { ...reply.body, time: 0 },
          { status: 'Error', time: 0, data: 'No items found.', code: 'not_found' },
        );
      });
    }

    test('a found topic is still 200', async () => {
      const reply = await call(notFound404.url, { headers: { apikey: key }, body: topicBody(1) });
      assert.equal(reply.status, 200);
      assert.equal(topicOf(reply).topic, 'General Inquiry');
    });

    test('invalid ids are still 400, not 404', async () => {
      const reply = await call(notFound404.url, { headers: { apikey: key }, body: topicBody(0) });
      assertError(reply, 400, 'invalid_parameters');
    });
  });
});
