import assert from 'node:assert/strict';
import { test } from 'node:test';
import { describeWithDatabase, SQLITE } from '../helpers/each-database.ts';
import { call, userBody } from '../helpers/http.ts';
import { useTestServer } from '../helpers/test-server.ts';
import { runCliJson } from './cli-assertions.ts';

interface CreatedKey {
  key: string;
  scopes: string[];
}

describeWithDatabase('keys create --scope users:read', SQLITE, (database) => {
  const server = useTestServer({ database });

  test('a key with users:read alone reads users, and nothing else', async () => {
    const created = await runCliJson<CreatedKey>([
      'keys',
      'create',
      '--name',
      'crm sync',
      '--scope',
      'users:read',
      '--json',
      '--database',
      database.url,
    ]);
    assert.deepEqual(created.scopes, ['users:read']);
    const { key: writer } = await server.createKey({ scopes: ['write'] });
    const made = await call(server.url, {
      method: 'POST',
      headers: { apikey: writer },
      body: userBody({ email: 'cli.scope@example.com' }),
    });
    assert.equal(made.status, 200, made.text);
    const headers = { apikey: created.key };
    const user = await call(server.url, {
      headers,
      body: { query: 'user', condition: 'specific', parameters: { id: made.body?.data } },
    });
    assert.equal(user.status, 200, user.text);
    const range = { start_date: '2000-01-01', end_date: '2999-12-31' };
    const users = await call(server.url, {
      headers,
      body: { query: 'user', condition: 'all', parameters: range },
    });
    assert.equal(users.status, 200, users.text);
    for (const body of [
      { query: 'topics', condition: 'all' },
      { query: 'topics', condition: 'specific', parameters: { id: 1 } },
    ]) {
      const refused = await call(server.url, { headers, body });
      assert.equal(refused.status, 403);
      assert.equal(refused.body?.code, 'insufficient_scope');
    }
    const write = await call(server.url, { method: 'POST', headers, body: userBody() });
    assert.equal(write.status, 403);
  });

  test('read,users:read together', async () => {
    const created = await runCliJson<CreatedKey>([
      'keys',
      'create',
      '--name',
      'portal',
      '--scope',
      'read,users:read',
      '--json',
      '--database',
      database.url,
    ]);
    assert.deepEqual(created.scopes, ['read', 'users:read']);
  });
});
