import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { openDatabase } from '../../src/data/open-database.ts';
import { timestampToMs } from '../../src/data/time.ts';
import { runCli } from '../helpers/cli.ts';
import { createKey, migrateDatabase, revokeKey, tableRows } from '../helpers/cli-data.ts';
import { describeEachDatabase, describeWithDatabase, SQLITE } from '../helpers/each-database.ts';
import { call, type Reply, topicBody } from '../helpers/http.ts';
import { useTestServer } from '../helpers/test-server.ts';
import type { Database } from '../support/own-schema.ts';
import { assertCleanFailure, runCliJson, runCliText } from './cli-assertions.ts';

interface IssuedKey {
  id: number;
  name: string;
  key: string;
  scopes: string[];
  allowIps: string[];
  expires?: string;
  notes?: boolean;
}

interface ListedKey {
  id: number;
  name: string;
  scopes: string[];
  allowIps: string[];
  lastUsed: string | null;
  revoked: string | null;
  expires: string | null;
  replacedBy: number | null;
}

/** Waits until the UTC timestamp `at` has passed on this machine's clock. */
async function waitPast(at: string): Promise<void> {
  const ms = timestampToMs(at) - Date.now() + 50;
  if (ms > 0) await new Promise((resolve) => setTimeout(resolve, ms));
}

describeEachDatabase('keys: expiry, rotation and last use', (database) => {
  // A long key cache: an expiry must end a key on time even while it is cached.
  const server = useTestServer({
    database,
    ownKey: false,
    env: { DESKGATE_KEY_CACHE_TTL: '600000' },
  });
  // Rotation changes a key after a server may have cached it: as for a revocation, the cache's
  // lifetime bounds how long a running server takes to see it.
  const shortCache = useTestServer({
    database,
    ownKey: false,
    env: { DESKGATE_KEY_CACHE_TTL: '300' },
  });
  const db = () => ['--database', database.url];
  const ask = (key: string): Promise<Reply> =>
    call(server.url, { headers: { apikey: key }, body: topicBody(1) });
  const listKeys = () => runCliJson<ListedKey[]>(['keys', 'list', ...db()]);
  const unknownKeyReply = () => ask('0123456789ABCDEF0123456789ABCDEF');
  const withoutTime = (reply: Reply) => ({ ...reply.body, time: undefined });

  test('keys create --expires: the key works, then answers 401 invalid_api_key as an unknown key does, cache or not', async () => {
    const created = await runCliJson<IssuedKey>([
      'keys',
      'create',
      '--name',
      'short-lived',
      '--expires',
      '2s',
      ...db(),
    ]);
    assert.ok(created.expires, 'the expiry is printed');
    assert.ok(timestampToMs(created.expires) - Date.now() <= 3_100);
    assert.equal((await ask(created.key)).status, 200);
    assert.equal((await ask(created.key)).status, 200, 'served from the cache');
    await waitPast(created.expires);
    const expired = await ask(created.key);
    const unknown = await unknownKeyReply();
    assert.equal(expired.status, 401);
    assert.equal(expired.body?.code, 'invalid_api_key');
    assert.deepEqual(
      withoutTime(expired),
      withoutTime(unknown),
      'an expired key is told apart from no other',
    );
    const listed = (await listKeys()).find((k) => k.id === created.id);
    assert.equal(listed?.expires, created.expires);
    assert.equal(listed?.revoked, null);
    assert.match(await runCliText(['keys', 'list', ...db()]), /short-lived.*\bexpired\b/);
  });

  test('keys create --expires takes a UTC date; no --expires never expires', async () => {
    const dated = await runCliJson<IssuedKey>([
      'keys',
      'create',
      '--name',
      'dated',
      '--expires',
      '2099-01-31',
      ...db(),
    ]);
    assert.equal(dated.expires, '2099-01-31 00:00:00');
    const forever = await runCliJson<IssuedKey>(['keys', 'create', '--name', 'forever', ...db()]);
    assert.equal(forever.expires, undefined);
    const listed = await listKeys();
    assert.equal(listed.find((k) => k.id === forever.id)?.expires, null);
    assert.equal(listed.find((k) => k.id === dated.id)?.expires, '2099-01-31 00:00:00');
  });

  test('keys rotate --grace: a new secret with the same settings; the old one works until the grace ends', async () => {
    const old = await createKey(database.url, {
      name: 'portal',
      scopes: ['read'],
      allowIps: ['127.0.0.0/8', '::1'],
      notes: true,
    });
    const askShort = (key: string): Promise<Reply> =>
      call(shortCache.url, { headers: { apikey: key }, body: topicBody(1) });
    assert.equal((await askShort(old.key)).status, 200);
    const rotated = await runCliJson<IssuedKey>([
      'keys',
      'rotate',
      String(old.id),
      '--grace',
      '2s',
      ...db(),
    ]);
    assert.deepEqual(Object.keys(rotated).sort(), [
      'allowIps',
      'id',
      'key',
      'name',
      'notes',
      'scopes',
    ]);
    assert.notEqual(rotated.id, old.id);
    assert.notEqual(rotated.key, old.key);
    assert.match(rotated.key, /^[0-9A-F]{32}$/);
    assert.deepEqual(
      [rotated.name, rotated.scopes, rotated.allowIps, rotated.notes],
      [old.name, old.scopes, old.allowIps, true],
    );
    assert.equal((await askShort(rotated.key)).status, 200);
    assert.equal((await askShort(old.key)).status, 200, 'the old key works during the grace');
    const listedOld = (await listKeys()).find((k) => k.id === old.id);
    assert.equal(listedOld?.replacedBy, rotated.id);
    assert.ok(listedOld?.expires);
    await waitPast(listedOld.expires);
    const after = await askShort(old.key);
    assert.equal(after.status, 401, 'the old key ends with its grace');
    assert.deepEqual(withoutTime(after), withoutTime(await unknownKeyReply()));
    assert.equal((await askShort(rotated.key)).status, 200);
    assert.match(
      await runCliText(['keys', 'list', ...db()]),
      new RegExp(`portal .*expired \\(rotated to ${rotated.id}\\)`),
    );
  });

  test('keys rotate without --grace revokes the old key at once; the new key keeps the old lifetime', async () => {
    const old = await createKey(database.url, { name: 'monthly', expires: '30d' });
    const text = await runCliText(['keys', 'rotate', String(old.id), ...db()]);
    const [newKey] = text.match(/\b[0-9A-F]{32}\b/) ?? [];
    assert.ok(newKey, 'the new key is shown');
    assert.match(text, new RegExp(`old key ${old.id} is revoked`));
    const listed = await listKeys();
    const oldRow = listed.find((k) => k.id === old.id);
    const newRow = listed.find((k) => k.replacedBy === null && k.name === 'monthly');
    assert.notEqual(oldRow?.revoked, null);
    assert.ok(newRow?.expires);
    const lifetime = timestampToMs(newRow.expires) - Date.now();
    assert.ok(lifetime > 29.9 * 86_400_000 && lifetime <= 30 * 86_400_000 + 5_000, `${lifetime}`);
    // A fresh server (no cache) shows the revocation at once; this one's cache bounds it (2 s default).
    const fresh = await call(server.url, { headers: { apikey: newKey }, body: topicBody(1) });
    assert.equal(fresh.status, 200);
  });

  test('what cannot be rotated: one clear line, exit 1; nothing is written', async () => {
    const key = await createKey(database.url, { name: 'r' });
    const rotated = await runCliJson<IssuedKey>(['keys', 'rotate', String(key.id), ...db()]);
    const revoked = await createKey(database.url, { name: 'gone' });
    await revokeKey(database.url, revoked.id);
    const before = await tableRows(database.url, 'api_keys');
    assertCleanFailure(
      await runCli(['keys', 'rotate', String(key.id), ...db()]),
      1,
      new RegExp(`already rotated to key ${rotated.id}`),
    );
    assertCleanFailure(
      await runCli(['keys', 'rotate', String(revoked.id), ...db(), '--json']),
      1,
      /revoked/,
    );
    assertCleanFailure(await runCli(['keys', 'rotate', '999999', ...db()]), 1, /999999/);
    assert.deepEqual(await tableRows(database.url, 'api_keys'), before);
  });

  test('last use is shown, written at most once a minute per key, not on every request', async () => {
    const created = await createKey(database.url, { name: 'used' });
    assert.equal((await listKeys()).find((k) => k.id === created.id)?.lastUsed, null);
    assert.equal((await ask(created.key)).status, 200);
    const first = (await listKeys()).find((k) => k.id === created.id)?.lastUsed;
    assert.ok(first, 'a request marks the key used');
    assert.match(
      await runCliText(['keys', 'list', ...db()]),
      new RegExp(`used .*${first.replace(' ', 'T')}Z`),
    );
    // A mark older than any request: if a later request wrote, it would replace it.
    const { db: direct } = openDatabase<Database>(database.url);
    try {
      await direct
        .updateTable('api_keys')
        .set({ last_used_at: '2000-01-01 00:00:00' })
        .where('id', '=', created.id)
        .execute();
      for (let i = 0; i < 5; i++) assert.equal((await ask(created.key)).status, 200);
      const row = await direct
        .selectFrom('api_keys')
        .select('last_used_at')
        .where('id', '=', created.id)
        .executeTakeFirstOrThrow();
      assert.equal(row.last_used_at, '2000-01-01 00:00:00');
    } finally {
      await direct.destroy();
    }
  });
});

// Bad --grace and --expires values are refused before the database is opened: exit 2, nothing
// written, whatever the database.
describeWithDatabase(
  'keys rotate and keys create: --grace and --expires checks',
  SQLITE,
  (database) => {
    const db = () => ['--database', database.url];

    before(async () => {
      await migrateDatabase(database.url);
    });

    test('bad options exit 2 naming the option; nothing is written', async () => {
      // A key that could be rotated: only the options stand in the way.
      const key = await createKey(database.url, { name: 'r' });
      const before = await tableRows(database.url, 'api_keys');
      for (const args of [
        ['--grace', '5x'],
        ['--grace', '-1h'],
        ['--expires', '2001-01-01'],
        ['--expires', 'tomorrow'],
      ]) {
        assertCleanFailure(
          await runCli(['keys', 'rotate', String(key.id), ...args, ...db()]),
          2,
          new RegExp(args[0] ?? ''),
        );
      }
      for (const value of ['2001-01-01', '2027-02-30', '10', '1y']) {
        assertCleanFailure(
          await runCli(['keys', 'create', '--name', 'x', '--expires', value, ...db()]),
          2,
          /--expires/,
        );
      }
      assert.deepEqual(await tableRows(database.url, 'api_keys'), before);
    });
  },
);
