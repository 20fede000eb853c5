import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { hashApiKey } from '../../src/auth/api-key-secret.ts';
import { runCli } from '../helpers/cli.ts';
import { createKey, migrateDatabase, tableRows } from '../helpers/cli-data.ts';
import { DATABASES, type TestDatabase } from '../helpers/databases.ts';
import { describeWithDatabase, SQLITE } from '../helpers/each-database.ts';
import { call, topicBody } from '../helpers/http.ts';
import { startTestServer } from '../helpers/test-server.ts';
import { assertCleanFailure, runCliJson, runCliText } from './cli-assertions.ts';

interface CreatedKey {
  id: number;
  name: string;
  key: string;
  scopes: string[];
  allowIps: string[];
}

interface ListedKey {
  id: number;
  name: string;
  scopes: string[];
  allowIps: string[];
  revoked: string | null;
  [other: string]: unknown;
}

for (const kind of DATABASES) {
  describe(`deskgate keys on ${kind.name}`, () => {
    let database: TestDatabase;
    const db = () => ['--database', database.url];
    const listKeys = () => runCliJson<ListedKey[]>(['keys', 'list', ...db()]);

    before(async () => {
      database = await kind.create();
      // Only serve and migrate create deskgate's tables; every other command expects them.
      await migrateDatabase(database.url);
    });
    after(async () => {
      await database.drop();
    });

    test('keys create --json prints the new key once: 32 uppercase hex, every scope but admin by default', async () => {
      const created = await runCliJson<CreatedKey>(['keys', 'create', '--name', 'ci', ...db()]);
      assert.deepEqual(Object.keys(created).sort(), ['allowIps', 'id', 'key', 'name', 'scopes']);
      assert.ok(Number.isInteger(created.id) && created.id > 0);
      assert.equal(created.name, 'ci');
      assert.match(created.key, /^[0-9A-F]{32}$/);
      assert.deepEqual(created.scopes, [
        'read',
        'write',
        'users:read',
        'tickets:read',
        'tickets:write',
      ]);
      assert.deepEqual(created.allowIps, []);
      const listed = (await listKeys()).find((k) => k.id === created.id);
      assert.equal(listed?.name, 'ci');
      assert.deepEqual(listed?.scopes, created.scopes);
    });

    test('keys create --notes makes a key that reads internal notes', async () => {
      const created = await runCliJson<CreatedKey & { notes?: boolean }>([
        'keys',
        'create',
        '--name',
        'notes',
        '--scope',
        'tickets:read',
        '--notes',
        ...db(),
      ]);
      assert.equal(created.notes, true);
      assert.deepEqual(created.scopes, ['tickets:read']);
    });

    test('keys create --scope admin is the only way to a key with the admin scope', async () => {
      const created = await runCliJson<CreatedKey>([
        'keys',
        'create',
        '--name',
        'catalogue admin',
        '--scope',
        'read,admin',
        ...db(),
      ]);
      assert.deepEqual(created.scopes, ['read', 'admin']);
    });

    test('keys create takes --scope and repeated --allow-ip (IPv4 and IPv6 ranges)', async () => {
      const created = await runCliJson<CreatedKey>([
        'keys',
        'create',
        '--name',
        'portal',
        '--scope',
        'read',
        '--allow-ip',
        '10.0.0.0/8',
        '--allow-ip',
        '2001:db8::/32',
        ...db(),
      ]);
      assert.deepEqual(created.scopes, ['read']);
      assert.deepEqual(created.allowIps, ['10.0.0.0/8', '2001:db8::/32']);
      const listed = (await listKeys()).find((k) => k.id === created.id);
      assert.deepEqual(listed?.scopes, ['read']);
      assert.deepEqual(listed?.allowIps, ['10.0.0.0/8', '2001:db8::/32']);
    });

    test('keys list never shows a key or a key hash, with or without --json', async () => {
      const created = await createKey(database.url, { name: 'secret' });
      const [listed, text] = await Promise.all([listKeys(), runCliText(['keys', 'list', ...db()])]);
      const asJson = JSON.stringify(listed);
      for (const output of [asJson, text]) {
        assert.ok(output.includes('secret'), 'the key is listed by name');
        assert.ok(!output.includes(created.key), 'the key itself is listed');
        assert.ok(!output.toLowerCase().includes(created.key.toLowerCase()));
        assert.ok(!output.includes(hashApiKey(created.key)), 'the key hash is listed');
        assert.doesNotMatch(output, /[0-9a-fA-F]{32}/);
      }
      for (const entry of listed) {
        assert.deepEqual(
          Object.keys(entry).filter((name) => /key|hash|secret/i.test(name)),
          [],
          `unexpected field in ${JSON.stringify(entry)}`,
        );
      }
    });

    test('keys revoke ID: the key answers 401 over HTTP from then on', async (t) => {
      const created = await createKey(database.url, { name: 'soon-gone' });
      const other = await createKey(database.url, { name: 'stays' });
      // The server runs in the test's process; the revocation comes from a CLI process.
      const server = await startTestServer(t, { database: database.url, ownKey: false });
      const ask = (key: string) =>
        call(server.url, { headers: { apikey: key }, body: topicBody(1) });
      assert.equal((await ask(created.key)).status, 200);

      const revoked = await runCliJson<{ id: number; revoked: boolean }>([
        'keys',
        'revoke',
        String(created.id),
        ...db(),
      ]);
      assert.equal(revoked.id, created.id);
      assert.equal(revoked.revoked, true);

      const reply = await ask(created.key);
      assert.equal(reply.status, 401);
      assert.equal(reply.body?.code, 'invalid_api_key');
      assert.equal((await ask(other.key)).status, 200, 'only the revoked key stops working');
      const listed = (await listKeys()).find((k) => k.id === created.id);
      assert.notEqual(listed?.revoked, null);
    });

    test('keys revoke of an unknown id exits 1', async () => {
      const [unknown, unknownJson] = await Promise.all([
        runCli(['keys', 'revoke', '999999', ...db()]),
        runCli(['keys', 'revoke', '999999', ...db(), '--json']),
      ]);
      assertCleanFailure(unknown, 1, /999999/);
      assertCleanFailure(unknownJson, 1, /999999/);
    });
  });
}

// Usage errors, refused before the database is opened, and the text output of keys create and
// keys revoke (the same writes as with --json, which every database runs above).
describeWithDatabase('deskgate keys: argument checks and text output', SQLITE, (database) => {
  const db = () => ['--database', database.url];
  const listKeys = () => runCliJson<ListedKey[]>(['keys', 'list', ...db()]);

  before(async () => {
    await migrateDatabase(database.url);
  });

  test('keys create without --json shows the key in readable text', async () => {
    const text = await runCliText(['keys', 'create', '--name', 'by-hand', ...db()]);
    assert.match(text, /\b[0-9A-F]{32}\b/);
    assert.throws(() => JSON.parse(text));
    assert.ok((await listKeys()).some((k) => k.name === 'by-hand'));
  });

  test('bad input to keys create exits 2 with one line on stderr and creates nothing', async () => {
    const before = await tableRows(database.url, 'api_keys');
    // Each case once, half of them with --json: the failure must look the same either way.
    const cases: [string[], RegExp][] = [
      [['--name', 'bad', '--scope', 'superuser'], /--scope/],
      [['--name', 'bad', '--scope', 'read,superuser', '--json'], /--scope/],
      [['--name', 'bad', '--scope', ''], /--scope/],
      [['--name', 'bad', '--allow-ip', '10.0.0.0/33', '--json'], /--allow-ip/],
      [['--name', 'bad', '--allow-ip', '10.0.0.0/8', '--allow-ip', 'not-an-address'], /--allow-ip/],
      [['--name', 'bad', '--allow-ip', '300.1.2.3', '--json'], /--allow-ip/],
      [[], /--name/],
      [['--name', ' ', '--json'], /--name/],
    ];
    // Refused before the database is written: side by side, each a process of its own.
    const results = await Promise.all(
      cases.map(([args]) => runCli(['keys', 'create', ...args, ...db()])),
    );
    results.forEach((result, i) => {
      assertCleanFailure(result, 2, cases[i]?.[1]);
    });
    assert.deepEqual(await tableRows(database.url, 'api_keys'), before);
  });

  test('keys revoke without --json says what it did', async () => {
    const created = await createKey(database.url, { name: 'text' });
    const text = await runCliText(['keys', 'revoke', String(created.id), ...db()]);
    assert.match(text, new RegExp(`\\b${created.id}\\b`));
    assert.notEqual((await listKeys()).find((k) => k.id === created.id)?.revoked, null);
  });

  test('keys revoke with a non-numeric id or none exits 2', async () => {
    const [noId, ...badIds] = await Promise.all([
      runCli(['keys', 'revoke', ...db(), '--json']),
      ...['abc', '0', '1.5', '99999999999'].map((id) => runCli(['keys', 'revoke', id, ...db()])),
    ]);
    assert.equal(badIds.length, 4);
    for (const result of badIds) assertCleanFailure(result, 2, /ID/);
    assertCleanFailure(noId, 2);
  });
});
