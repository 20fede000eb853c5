import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { apiKeys } from '../../src/data/api-keys/api-keys.ts';
import { DATABASES, type TestDatabase } from '../helpers/databases.ts';
import { type StartedServer, startServer, withStore } from '../helpers/server.ts';

const INSTANCES = 5;

// Issue 14, item 14: instances starting together on a fresh database show one first key between them.
for (const kind of DATABASES) {
  describe(`${INSTANCES} instances starting together on a fresh ${kind.name} database`, () => {
    let database: TestDatabase;
    let servers: StartedServer[] = [];

    before(async () => {
      database = await kind.create();
    });
    after(async () => {
      await Promise.all(servers.map((s) => s.stop()));
      await database?.drop();
    });

    test('exactly one "default" key is created and printed', async () => {
      servers = await Promise.all(
        Array.from({ length: INSTANCES }, () => startServer({ databaseUrl: database.url })),
      );
      // Off a terminal the key goes to a file and the log says so, before the "listening" line
      // each server is waited for.
      const banners = servers.filter((s) =>
        s.output.some((line) => line.includes('created the first API key')),
      );
      assert.equal(banners.length, 1, servers.map((s) => s.output.join('\n')).join('\n---\n'));
      const keys = await withStore(database.url, (store) => store.data(apiKeys).listApiKeys());
      assert.deepEqual(
        keys.map((k) => k.name),
        ['default'],
      );
    });
  });
}
