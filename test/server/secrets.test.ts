import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import { runCliJson } from '../cli/cli-assertions.ts';
import { DATABASES, type TestDatabase } from '../helpers/databases.ts';
import { call, topicBody, userBody } from '../helpers/http.ts';
import { type StartedServer, startServer } from '../helpers/server.ts';

/** Every form a secret could be written in: as given, lower-cased, base64 and hex of its bytes. */
function encodings(secret: string): string[] {
  const bytes = Buffer.from(secret);
  return [secret, secret.toLowerCase(), bytes.toString('base64'), bytes.toString('hex')];
}

function assertContainsNone(haystack: Buffer, secrets: readonly string[], where: string): void {
  for (const secret of secrets) {
    for (const form of encodings(secret)) {
      assert.equal(haystack.includes(form), false, `${where} contains the secret ${secret}`);
      assert.equal(
        haystack.includes(Buffer.from(form, 'utf16le')),
        false,
        `${where} contains the secret ${secret} as UTF-16`,
      );
    }
  }
}

for (const kind of DATABASES) {
  describe(`no key or password at rest or in the logs on ${kind.name}`, () => {
    let database: TestDatabase;
    let server: StartedServer;
    const keys: string[] = [];
    const passwords = [
      'Plain-Password-One-7c1f',
      'Zweites Passwort mit Ümlauten 42',
      'third password, the one that failed validation',
      'fourth password: duplicate email',
      'fifth password with an Idempotency-Key',
    ];

    before(async () => {
      database = await kind.create();
      // Only serve and migrate create deskgate's tables; every other command expects them.
      await runCliJson(['migrate', '--database', database.url]);
      for (const name of ['writer', 'reader']) {
        const created = await runCliJson<{ key: string }>([
          'keys',
          'create',
          '--name',
          name,
          '--scope',
          name === 'writer' ? 'read,write' : 'read',
          '--database',
          database.url,
        ]);
        keys.push(created.key);
      }
      const revoked = await runCliJson<{ id: number; key: string }>([
        'keys',
        'create',
        '--name',
        'revoked',
        '--database',
        database.url,
      ]);
      keys.push(revoked.key);
      await runCliJson(['keys', 'revoke', String(revoked.id), '--database', database.url]);
      server = await startServer({ databaseUrl: database.url });
    });
    after(async () => {
      await server.stop();
      await database.drop();
    });

    test('after keys and users are created, neither the database files nor the log hold one in clear', async () => {
      const [writer, reader, revoked] = keys as [string, string, string];
      const add = (headers: Record<string, string>, overrides: Record<string, unknown>) =>
        call(server.url, { method: 'POST', headers, body: userBody(overrides) });

      const first = await add({ apikey: writer }, { password: passwords[0] });
      assert.equal(first.status, 200, first.text);
      const email = 'someone.unique@example.com';
      assert.equal((await add({ apikey: writer }, { password: passwords[1], email })).status, 200);
      // Rejected requests carry passwords too: they must not reach the log either.
      const invalid = await add({ apikey: writer }, { password: passwords[2], phone: 'nope' });
      assert.equal(invalid.status, 400);
      const duplicate = await add({ apikey: writer }, { password: passwords[3], email });
      assert.equal(duplicate.status, 409);
      const idempotent = { apikey: writer, 'Idempotency-Key': 'secret-test-1' };
      assert.equal((await add(idempotent, { password: passwords[4] })).status, 200);
      // Keys that are refused, or lack the scope, must not be logged either.
      assert.equal((await add({ apikey: reader }, { password: passwords[0] })).status, 403);
      assert.equal((await add({ apikey: revoked }, { password: passwords[0] })).status, 401);
      assert.equal(
        (await call(server.url, { headers: { apikey: reader }, body: topicBody(1) })).status,
        200,
      );

      const path = database.sqlitePath;
      if (path !== undefined) {
        const files = [path, `${path}-wal`].filter((file) => existsSync(file));
        assert.ok(files.length > 0);
        const bytes = Buffer.concat(files.map((file) => readFileSync(file)));
        // A sanity check that the files are the right ones: the user's address is in there.
        assert.ok(bytes.includes(email), 'the database files do not hold the new user');
        assertContainsNone(bytes, [...keys, ...passwords], 'the database');
      }

      const stopped = await server.stop();
      assert.equal(stopped, 0);
      assert.ok(
        server.output.some((line) => line.includes('"request"')),
        'requests were logged',
      );
      assertContainsNone(Buffer.from(server.output.join('\n')), [...keys, ...passwords], 'the log');

      if (path !== undefined) {
        // After a clean stop the WAL is checkpointed into the main file: look once more.
        const files = [path, `${path}-wal`].filter((file) => existsSync(file));
        const bytes = Buffer.concat(files.map((file) => readFileSync(file)));
        assertContainsNone(bytes, [...keys, ...passwords], 'the database after shutdown');
      }
    });
  });
}
