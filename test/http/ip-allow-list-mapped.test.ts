import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { hashApiKey } from '../../src/auth/api-key-secret.ts';
import { apiKeys } from '../../src/data/api-keys/api-keys.ts';
import { assertCleanFailure, runCliJson } from '../cli/cli-assertions.ts';
import { runCli } from '../helpers/cli.ts';
import { DATABASES, type TestDatabase } from '../helpers/databases.ts';
import { call, topicBody } from '../helpers/http.ts';
import { type StartedServer, startServer, withStore } from '../helpers/server.ts';

interface CreatedKey {
  key: string;
  allowIps: string[];
}

for (const kind of DATABASES.filter((d) => d.name !== 'mysql')) {
  describe(`IPv4-mapped IPv6 allow-list entries on ${kind.name}`, () => {
    let database: TestDatabase;
    let server: StartedServer;
    const db = () => ['--database', database.url];
    const create = (allowIp: string) =>
      runCliJson<CreatedKey>([
        'keys',
        'create',
        '--name',
        'mapped',
        '--allow-ip',
        allowIp,
        ...db(),
      ]);
    const lookup = (key: string) =>
      call(server.url, { headers: { apikey: key }, body: topicBody(1) });

    before(async () => {
      database = await kind.create();
      await withStore(database.url, async () => {}); // a migrated database
      server = await startServer({ databaseUrl: database.url });
    });
    after(async () => {
      await server?.stop();
      await database?.drop();
    });

    test('keys create stores ::ffff:127.0.0.1 as 127.0.0.1, and the key works from there', async () => {
      const created = await create('::ffff:127.0.0.1');
      assert.deepEqual(created.allowIps, ['127.0.0.1']);
      const reply = await lookup(created.key);
      assert.equal(reply.status, 200, reply.text);
    });

    test('a mapped range (::ffff:127.0.0.0/104) becomes 127.0.0.0/8; one elsewhere is refused', async () => {
      const local = await create('::ffff:127.0.0.0/104');
      assert.deepEqual(local.allowIps, ['127.0.0.0/8']);
      assert.equal((await lookup(local.key)).status, 200);
      const elsewhere = await create('::FFFF:10.0.0.0/104');
      assert.deepEqual(elsewhere.allowIps, ['10.0.0.0/8']);
      const refused = await lookup(elsewhere.key);
      assert.equal(refused.status, 403);
      assert.equal(refused.body?.code, 'ip_not_allowed');
    });

    test('a range mixing mapped and other IPv6 addresses is refused in one line, exit 2', async () => {
      assertCleanFailure(
        await runCli(['keys', 'create', '--name', 'x', '--allow-ip', '::ffff:0:0/80', ...db()]),
        2,
        /--allow-ip: "::ffff:0:0\/80" mixes IPv4-mapped and other IPv6 addresses/,
      );
    });

    test('a key stored earlier with a mapped entry matches too', async () => {
      const key = 'C0FFEE00C0FFEE00C0FFEE00C0FFEE00';
      await withStore(database.url, (store) =>
        store.data(apiKeys).createApiKey({
          name: 'stored-before-the-fix',
          scopes: ['read'],
          allowIps: ['::ffff:127.0.0.1'],
          keyHash: hashApiKey(key),
        }),
      );
      const reply = await lookup(key);
      assert.equal(reply.status, 200, reply.text);
    });
  });
}
