import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { DATABASES, type TestDatabase } from '../../../test/helpers/databases.ts';
import { call, topicBody } from '../../../test/helpers/http.ts';
import { createKey, type StartedServer, startServer } from '../../../test/helpers/server.ts';

for (const kind of DATABASES) {
  describe(`topics/specific on ${kind.name}`, () => {
    let database: TestDatabase;
    let server: StartedServer;
    let key: string;

    before(async () => {
      database = await kind.create();
      ({ key } = await createKey(database.url, { scopes: ['read'] }));
      server = await startServer({ databaseUrl: database.url });
    });
    after(async () => {
      await server.stop();
      await database.drop();
    });

    test('a GET with a JSON body returns the topic, every value a string', async () => {
      const reply = await call(server.url, { headers: { apikey: key }, body: topicBody(11) });
      assert.equal(reply.status, 200);
      assert.equal(reply.headers['content-type'], 'application/json; charset=utf-8');
      assert.equal(reply.body?.status, 'Success');
      assert.equal(typeof reply.body?.time, 'number');
      const data = reply.body?.data as { total: number; topic: Record<string, unknown> };
      assert.equal(data.total, 1);
      assert.deepEqual(Object.keys(data.topic), [
        'id',
        'parent',
        'ispublic',
        'sort',
        'topic',
        'notes',
        'created',
        'updated',
      ]);
      assert.equal(data.topic.id, '11');
      assert.equal(data.topic.parent, '10');
      assert.equal(data.topic.ispublic, '1');
      assert.equal(data.topic.topic, 'Access Issue');
      for (const value of Object.values(data.topic)) assert.equal(typeof value, 'string');
      assert.match(String(data.topic.created), /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
    });

    test('an id that does not exist answers 204 with X-Error-Code and no body', async () => {
      const reply = await call(server.url, { headers: { apikey: key }, body: topicBody(999) });
      assert.equal(reply.status, 204);
      assert.equal(reply.text, '');
      assert.equal(reply.headers['x-error-code'], 'not_found');
    });
  });
}
