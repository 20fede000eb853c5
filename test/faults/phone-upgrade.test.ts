import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'kysely';
import { openDatabase } from '../../src/data/open-database.ts';
import { now } from '../../src/data/time.ts';
import { DATABASES, type TestDatabase } from '../helpers/databases.ts';
import { startTestServer } from '../helpers/test-server.ts';
import { migrateBefore } from '../support/migrate-before.ts';

/** Phones an earlier release stored as numbers (0: no phone), and what they read as after 006. */
const STORED: [number, string][] = [
  [612345678, '612345678'],
  [999_999_999_999_999, '999999999999999'],
  [0, ''],
];

// Issue 27, item 1: the phone column becomes text, keeping every stored number.
for (const kind of DATABASES) {
  describe(`phones stored as numbers before migration 007, on ${kind.name}`, () => {
    let database: TestDatabase;
    const ids: number[] = [];

    before(async () => {
      database = await kind.create();
      await migrateBefore(database.url, '007');
      const { db } = openDatabase(database.url);
      try {
        const at = now();
        for (const [phone] of STORED) {
          await sql`insert into users (org_id, default_email_id, status, name, phone, created_at, updated_at)
            values (0, 0, 0, 'Before', ${phone}, ${at}, ${at})`.execute(db);
          const { rows } = await sql<{ id: number }>`select max(id) as id from users`.execute(db);
          const id = Number(rows[0]?.id);
          ids.push(id);
          await sql`insert into user_accounts (user_id, timezone, password_hash, registered_at)
            values (${id}, 'UTC', 'x', ${at})`.execute(db);
        }
      } finally {
        await db.destroy();
      }
    });
    after(async () => {
      await database?.drop();
    });

    test('after the upgrade user/specific answers their digits, and a new phone keeps its zero', async (t) => {
      const server = await startTestServer(t, { database });
      for (const [index, [, expected]] of STORED.entries()) {
        const reply = await server.request({
          query: 'user',
          condition: 'specific',
          parameters: { id: ids[index] },
        });
        assert.equal(reply.status, 200, reply.text);
        const users =
          (reply.body?.data as { users?: { phone: string }[] } | undefined)?.users ?? [];
        assert.equal(users[0]?.phone, expected);
      }
      const added = await server.request(
        {
          query: 'user',
          condition: 'add',
          parameters: {
            name: 'After',
            email: 'after.upgrade@example.com',
            password: 'correct horse',
            timezone: 'UTC',
            phone: '06 12 34 56 78',
            org_id: 0,
            default_email_id: 0,
            status: 0,
          },
        },
        { method: 'POST' },
      );
      assert.equal(added.status, 200, added.text);
      const reply = await server.request({
        query: 'user',
        condition: 'specific',
        parameters: { id: added.body?.data },
      });
      const users = (reply.body?.data as { users?: { phone: string }[] } | undefined)?.users ?? [];
      assert.equal(users[0]?.phone, '0612345678');
    });
  });
}
