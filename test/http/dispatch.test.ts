import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { users } from '../../src/data/users/users.ts';
import { assertError } from '../helpers/assertions.ts';
import { describeWithDatabase, SQLITE } from '../helpers/each-database.ts';
import { call, type Reply, topicBody, userBody, userFields } from '../helpers/http.ts';
import { withStore } from '../helpers/server.ts';
import { useTestServer } from '../helpers/test-server.ts';

function topicId(reply: Reply): string | undefined {
  return (reply.body?.data as { topic?: { id?: string } } | undefined)?.topic?.id;
}

describeWithDatabase('dispatch', SQLITE, (database) => {
  const server = useTestServer({ database });
  let key: string;
  before(async () => {
    key = server.key;
  });

  function send(body: unknown, method = 'GET'): Promise<Reply> {
    return call(server.url, { method, headers: { apikey: key }, body });
  }

  test('query or condition missing or not a string → 400 invalid_request', async () => {
    const parameters = { id: 1 };
    const bodies = [
      {},
      { parameters },
      { condition: 'specific', parameters },
      { query: 'topics', parameters },
      { query: 1, condition: 'specific', parameters },
      { query: 'topics', condition: null, parameters },
      { query: ['topics'], condition: 'specific', parameters },
      { query: { name: 'topics' }, condition: 'specific', parameters },
      { query: 'topics', condition: true, parameters },
    ];
    for (const body of bodies) {
      for (const method of ['GET', 'POST']) {
        assertError(await send(body, method), 400, 'invalid_request');
      }
    }
  });

  test('an unknown pair → 400 unknown_operation naming the supported operations', async () => {
    const pairs = [
      ['topics', 'list'],
      ['user', 'get'],
      ['topics', 'add'],
      ['users', 'add'],
      ['Topics', 'Specific'],
      ['', ''],
      ['topics/specific', ''],
    ];
    for (const [query, condition] of pairs) {
      for (const method of ['GET', 'POST']) {
        const reply = await send({ query, condition, parameters: { id: 1 } }, method);
        assertError(reply, 400, 'unknown_operation');
        assert.match(String(reply.body?.data), /topics\/specific/);
        assert.match(String(reply.body?.data), /user\/add/);
      }
    }
  });

  test('topics/specific with another method → 405 method_not_allowed, Allow: GET', async () => {
    for (const method of ['POST', 'PUT', 'DELETE', 'PATCH']) {
      const reply = await send(topicBody(1), method);
      assertError(reply, 405, 'method_not_allowed');
      assert.equal(reply.headers.allow, 'GET');
    }
  });

  test('HEAD on the service address → 405 naming the methods, no body', async () => {
    const reply = await call(server.url, { method: 'HEAD', headers: { apikey: key } });
    assert.equal(reply.status, 405);
    assert.equal(reply.headers.allow, 'GET, POST, PUT, DELETE');
    assert.equal(reply.text, '');
  });

  test('user/add with another method → 405 method_not_allowed, Allow: POST, PUT', async () => {
    for (const method of ['GET', 'DELETE', 'PATCH']) {
      const email = `nobody.${method.toLowerCase()}@example.com`;
      const reply = await send(userBody({ email }), method);
      assertError(reply, 405, 'method_not_allowed');
      assert.equal(reply.headers.allow, 'POST, PUT');
      // Nothing was written.
      assert.equal(
        await withStore(database.url, (store) => store.data(users).findUserIdByEmail(email)),
        undefined,
      );
    }
  });

  test('user/add works with POST and with PUT', async () => {
    for (const method of ['POST', 'PUT']) {
      const email = `made.with.${method.toLowerCase()}@example.com`;
      const reply = await send(userBody({ email }), method);
      assert.equal(reply.status, 200, `${method}: ${reply.text}`);
      assert.equal(reply.body?.status, 'Success');
      const id = String(reply.body?.data);
      assert.match(id, /^[1-9][0-9]*$/);
      const stored = await withStore(database.url, (store) =>
        store.data(users).findUserIdByEmail(email),
      );
      assert.equal(String(stored), id);
    }
  });

  test('parameters missing or not an object → 400 invalid_parameters', async () => {
    const notObjects = [undefined, null, [], [1], 'id=1', 1, true];
    for (const parameters of notObjects) {
      const topic = await send({ query: 'topics', condition: 'specific', parameters });
      assertError(topic, 400, 'invalid_parameters');
      const user = await send({ query: 'user', condition: 'add', parameters }, 'POST');
      assertError(user, 400, 'invalid_parameters');
    }
  });

  test('parameters the operation does not define → 400 invalid_parameters naming them', async () => {
    const topic = await send({
      query: 'topics',
      condition: 'specific',
      parameters: { id: 1, colour: 'red', limit: 5 },
    });
    assertError(topic, 400, 'invalid_parameters');
    assert.match(String(topic.body?.data), /colour/);
    assert.match(String(topic.body?.data), /limit/);
    const fields = topic.body?.errors?.map((e) => e.field) ?? [];
    assert.ok(fields.includes('parameters.colour'), JSON.stringify(topic.body?.errors));
    assert.ok(fields.includes('parameters.limit'), JSON.stringify(topic.body?.errors));

    const email = 'extra.field@example.com';
    const user = await send(
      { query: 'user', condition: 'add', parameters: userFields({ email, nickname: 'annie' }) },
      'POST',
    );
    assertError(user, 400, 'invalid_parameters');
    assert.match(String(user.body?.data), /nickname/);
    assert.ok(
      user.body?.errors?.some((e) => e.field === 'parameters.nickname'),
      JSON.stringify(user.body?.errors),
    );
    assert.equal(
      await withStore(database.url, (store) => store.data(users).findUserIdByEmail(email)),
      undefined,
    );
  });

  test('other top-level fields are ignored', async () => {
    const extra = {
      apikey: 'in the body',
      limit: 10,
      format: 'xml',
      data: null,
      nested: { a: 1 },
    };
    const topic = await send({ ...topicBody(11), ...extra });
    assert.equal(topic.status, 200, topic.text);
    assert.equal(topicId(topic), '11');
    const user = await send({ ...userBody(), ...extra, sort: 'name' }, 'POST');
    assert.equal(user.status, 200, user.text);
  });

  test('topics/specific accepts sort "id"', async () => {
    const reply = await send({ ...topicBody(2), sort: 'id' });
    assert.equal(reply.status, 200, reply.text);
    assert.equal(topicId(reply), '2');
  });

  test('topics/specific with any other sort → 400 invalid_request', async () => {
    for (const sort of ['title', 'ID', '', 'id ', 1, null, ['id'], { by: 'id' }]) {
      const reply = await send({ ...topicBody(2), sort });
      assertError(reply, 400, 'invalid_request');
      assert.match(String(reply.body?.data), /sort/);
    }
  });
});
