import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { describeEachDatabase } from '../../../test/helpers/each-database.ts';
import { call, type Reply, USER_VIEW_KEYS, userBody } from '../../../test/helpers/http.ts';
import { type TestServer, useTestServer } from '../../../test/helpers/test-server.ts';

const TIMESTAMP = /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/;

function userOf(reply: Reply): Record<string, string> {
  assert.equal(reply.status, 200, reply.text);
  const data = reply.body?.data as { total: number; users: Record<string, string>[] };
  assert.equal(data.total, 1);
  assert.equal(data.users.length, 1);
  return data.users[0] as Record<string, string>;
}

function assertNoContent(reply: Reply): void {
  assert.equal(reply.status, 204, reply.text);
  assert.equal(reply.text, '');
  assert.equal(reply.headers['x-error-code'], 'not_found');
}

describeEachDatabase('user/specific', (database) => {
  const server = useTestServer({ database });
  const strict = useTestServer({ database, env: { DESKGATE_NOT_FOUND_STATUS: '404' } });
  let key: string;
  let readWrite: string;
  let annId: string;

  before(async () => {
    ({ key } = await server.createKey({ scopes: ['write', 'users:read'] }));
    ({ key: readWrite } = await server.createKey({ scopes: ['read', 'write'] }));
    const made = await call(server.url, {
      method: 'POST',
      headers: { apikey: key },
      body: userBody({
        name: 'Ann Ñandú',
        email: 'Ann.Example@Example.com',
        password: 'correct horse battery staple',
        timezone: 'Europe/Lisbon',
        phone: '351210000000',
        org_id: 3,
        status: 1,
      }),
    });
    assert.equal(made.status, 200, made.text);
    annId = String(made.body?.data);
  });

  const lookUp = (body: Record<string, unknown>, target: TestServer = server, apikey = key) =>
    call(target.url, {
      headers: { apikey },
      body: { query: 'user', condition: 'specific', ...body },
    });

  test('by id (the default sort): the User view, every value a string, no hash', async () => {
    const reply = await lookUp({ parameters: { id: Number(annId) } });
    const user = userOf(reply);
    assert.deepEqual(Object.keys(user).sort(), USER_VIEW_KEYS);
    assert.deepEqual(
      { ...user, created: '', updated: '' },
      {
        user_id: annId,
        name: 'Ann Ñandú',
        email: 'Ann.Example@Example.com',
        org_id: '3',
        status: '1',
        timezone: 'Europe/Lisbon',
        phone: '351210000000',
        created: '',
        updated: '',
      },
    );
    assert.match(user.created ?? '', TIMESTAMP);
    assert.match(user.updated ?? '', TIMESTAMP);
    assert.doesNotMatch(reply.text, /\$2[aby]\$|correct horse/);
    assert.equal(userOf(await lookUp({ sort: 'id', parameters: { id: annId } })).user_id, annId);
  });

  test('by email, case-insensitively and trimmed', async () => {
    for (const email of [
      'ann.example@example.com',
      'ANN.EXAMPLE@EXAMPLE.COM',
      ' Ann.Example@Example.com ',
    ]) {
      const user = userOf(await lookUp({ sort: 'email', parameters: { email } }));
      assert.equal(user.user_id, annId);
      assert.equal(user.email, 'Ann.Example@Example.com');
    }
  });

  test('nobody → 204 not_found (or 404 with DESKGATE_NOT_FOUND_STATUS=404)', async () => {
    assertNoContent(await lookUp({ parameters: { id: 2147483647 } }));
    assertNoContent(await lookUp({ sort: 'email', parameters: { email: 'nobody@example.com' } }));
    // LIKE-style wildcards are not patterns.
    assertNoContent(await lookUp({ sort: 'email', parameters: { email: 'ann%' } }));
    const strictReply = await lookUp({ parameters: { id: 2147483647 } }, strict);
    assert.equal(strictReply.status, 404);
    assert.equal(strictReply.body?.code, 'not_found');
    assert.equal(strictReply.body?.data, 'No items found.');
  });

  test('bad sort → 400 invalid_request; bad parameters → 400 invalid_parameters', async () => {
    for (const sort of ['name', 'ID', '', 1, null]) {
      const reply = await lookUp({ sort, parameters: { id: 1 } });
      assert.equal(reply.status, 400, reply.text);
      assert.equal(reply.body?.code, 'invalid_request');
      assert.match(String(reply.body?.data), /sort must be "id" or "email"/);
    }
    const cases: [Record<string, unknown>, string][] = [
      [{ parameters: { id: 0 } }, 'parameters.id'],
      [{ parameters: { id: '2147483648' } }, 'parameters.id'],
      [{ parameters: {} }, 'parameters.id'],
      [{ parameters: { email: 'a@b.c' } }, 'parameters.email'],
      [{ sort: 'email', parameters: { email: '' } }, 'parameters.email'],
      [{ sort: 'email', parameters: { email: 'x'.repeat(256) } }, 'parameters.email'],
      [{ sort: 'email', parameters: { id: 1 } }, 'parameters.email'],
    ];
    for (const [body, field] of cases) {
      const reply = await lookUp(body);
      assert.equal(reply.status, 400, JSON.stringify(body));
      assert.equal(reply.body?.code, 'invalid_parameters');
      assert.ok(
        reply.body?.errors?.some((e) => e.field === field),
        `${JSON.stringify(body)}: ${reply.text}`,
      );
    }
  });

  test('needs the users:read scope, and GET', async () => {
    const noScope = await lookUp({ parameters: { id: annId } }, server, readWrite);
    assert.equal(noScope.status, 403);
    assert.equal(noScope.body?.code, 'insufficient_scope');
    assert.match(String(noScope.body?.data), /users:read/);
    const post = await call(server.url, {
      method: 'POST',
      headers: { apikey: key },
      body: { query: 'user', condition: 'specific', parameters: { id: annId } },
    });
    assert.equal(post.status, 405);
    assert.equal(post.headers.allow, 'GET');
  });
});
