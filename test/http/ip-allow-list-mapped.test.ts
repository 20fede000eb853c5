import assert from 'node:assert/strict';
import { test } from 'node:test';
import { hashApiKey } from '../../src/auth/api-key-secret.ts';
import { assertCleanFailure, runCliJson } from '../cli/cli-assertions.ts';
import { runCli } from '../helpers/cli.ts';
import { createApiKeyRow } from '../helpers/data-setup.ts';
import { DATABASES } from '../helpers/databases.ts';
import { describeWithDatabase } from '../helpers/each-database.ts';
import { call, topicBody } from '../helpers/http.ts';
import { useTestServer } from '../helpers/test-server.ts';

interface CreatedKey {
  key: string;
  allowIps: string[];
}

for (const kind of DATABASES.filter((d) => d.name !== 'mysql')) {
  describeWithDatabase(`IPv4-mapped IPv6 allow-list entries on ${kind.name}`, kind, (database) => {
    // The server migrates the database as it starts; the CLI then works on it beside the server.
    const server = useTestServer({ database });
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
      await createApiKeyRow(server, {
        name: 'stored-before-the-fix',
        scopes: ['read'],
        allowIps: ['::ffff:127.0.0.1'],
        keyHash: hashApiKey(key),
      });
      const reply = await lookup(key);
      assert.equal(reply.status, 200, reply.text);
    });
  });
}
