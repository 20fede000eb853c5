import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'kysely';
import { openDatabase } from '../../src/data/open-database.ts';
import { now } from '../../src/data/time.ts';
import { fingerprintOf } from '../../src/operations/idempotent-write.ts';
import { toPasswordHash } from '../../src/operations/user-add/password.ts';
import { DATABASES, type TestDatabase } from '../helpers/databases.ts';
import { userFields } from '../helpers/http.ts';
import { startTestServer } from '../helpers/test-server.ts';
import { migrateBefore } from '../support/migrate-before.ts';

// Issue 24, item 3: an Idempotency-Key answered before the upgrade is still answered after it.
for (const kind of DATABASES) {
  describe(`idempotency records written before the generic write path, on ${kind.name}`, () => {
    let database: TestDatabase;
    const parameters = userFields({ email: 'before.upgrade@example.com' });
    const KEY = 'retry-across-the-upgrade';
    let userId: number;

    before(async () => {
      database = await kind.create();
      await migrateBefore(database.url, '005');
      const { db } = openDatabase(database.url);
      try {
        const at = now();
        const hash = await toPasswordHash(String(parameters.password), {
          cost: 4,
          version: '2y',
        });
        await sql`insert into users (org_id, default_email_id, status, name, phone, created_at, updated_at)
          values (0, 0, 1, ${parameters.name}, ${parameters.phone}, ${at}, ${at})`.execute(db);
        const { rows } = await sql<{ id: number }>`select max(id) as id from users`.execute(db);
        userId = Number(rows[0]?.id);
        await sql`insert into user_emails (user_id, address, address_key)
          values (${userId}, ${parameters.email}, ${String(parameters.email).toLowerCase()})`.execute(
          db,
        );
        await sql`insert into user_accounts (user_id, timezone, password_hash, registered_at)
          values (${userId}, ${parameters.timezone}, ${hash}, ${at})`.execute(db);
        // The record user/add kept then: the user's id, no operation, no answer. The server's
        // key, made after the upgrade, is the database's first: id 1.
        await sql`insert into idempotency_keys (api_key_id, idempotency_key, fingerprint, user_id, created_at)
          values (1, ${KEY}, ${fingerprintOf(parameters, ['password'])}, ${userId}, ${at})`.execute(
          db,
        );
      } finally {
        await db.destroy();
      }
    });
    after(async () => {
      await database?.drop();
    });

    test('a retry after the upgrade gets the same id; other parameters get 422', async (t) => {
      const server = await startTestServer(t, { database });
      assert.equal(server.keyId, 1);
      const retry = await server.request(
        { query: 'user', condition: 'add', parameters },
        { method: 'POST', headers: { 'Idempotency-Key': KEY } },
      );
      assert.equal(retry.status, 200, retry.text);
      assert.equal(retry.body?.data, String(userId));
      const other = await server.request(
        { query: 'user', condition: 'add', parameters: { ...parameters, name: 'Someone Else' } },
        { method: 'POST', headers: { 'Idempotency-Key': KEY } },
      );
      assert.equal(other.status, 422, other.text);
      assert.equal(other.body?.code, 'idempotency_mismatch');
      const wrongPassword = await server.request(
        {
          query: 'user',
          condition: 'add',
          parameters: { ...parameters, password: 'not the one sent' },
        },
        { method: 'POST', headers: { 'Idempotency-Key': KEY } },
      );
      assert.equal(wrongPassword.status, 422, wrongPassword.text);
    });
  });
}
