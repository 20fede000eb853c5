import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { describeEachDatabaseKind } from '../../../test/helpers/each-database.ts';
import { call, type Reply, USER_VIEW_KEYS, userBody } from '../../../test/helpers/http.ts';
import { useKindServer } from '../../../test/helpers/kind-server.ts';
import type { TestServer } from '../../../test/helpers/test-server.ts';
import { insertStaffMadeUser, userKeysOfKind } from '../../../test/helpers/users-of-kind.ts';

const TIMESTAMP = /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/;

function userOf(reply: Reply): Record<string, string> {
  assert.equal(reply.status, 200, reply.text);
  const data = reply.body?.data as { total: number; users: Record<string, string>[] };
  assert.equal(data.total, 1);
  assert.equal(data.users.length, 1);
  return data.users[0] as Record<string, string>;
}

function assertNoContent(reply: Reply): void {
  assert.equal(reply.status, 204, reply.text);
  assert.equal(reply.text, '');
  assert.equal(reply.headers['x-error-code'], 'not_found');
}

describeEachDatabaseKind('user/specific', (database) => {
  const own = database.kind !== 'osticket';
  const server = useKindServer(database);
  const strict = useKindServer(database, { DESKGATE_NOT_FOUND_STATUS: '404' });
  let key: string;
  /** A key that may read and write but not read users: osTicket's key without "Can Create Tickets". */
  let readWrite: string;
  let annId: string;
  // In osTicket mode an organization (and its primary-contact bit) must exist and takes the key's
  // organizations grant (user/add's tests): there Ann is in none.
  const annOrg = own ? { org_id: 3, status: 1 } : { org_id: 0, status: 0 };

  before(async () => {
    ({ usersKey: key, noUsersKey: readWrite } = await userKeysOfKind(database, server));
    const made = await call(server.url, {
      method: 'POST',
      headers: { apikey: key },
      body: userBody({
        name: 'Ann Ñandú',
        email: 'Ann.Example@Example.com',
        password: 'correct horse battery staple',
        timezone: 'Europe/Lisbon',
        phone: '351210000000',
        ...annOrg,
      }),
    });
    assert.equal(made.status, 200, made.text);
    annId = String(made.body?.data);
  });

  const lookUp = (body: Record<string, unknown>, target: TestServer = server, apikey = key) =>
    call(target.url, {
      headers: { apikey },
      body: { query: 'user', condition: 'specific', ...body },
    });

  test('by id (the default sort): the User view, every value a string, no hash', async () => {
    const reply = await lookUp({ parameters: { id: Number(annId) } });
    const user = userOf(reply);
    assert.deepEqual(Object.keys(user).sort(), USER_VIEW_KEYS);
    assert.deepEqual(
      { ...user, created: '', updated: '' },
      {
        user_id: annId,
        name: 'Ann Ñandú',
        email: 'Ann.Example@Example.com',
        org_id: String(annOrg.org_id),
        status: String(annOrg.status),
        timezone: 'Europe/Lisbon',
        phone: '351210000000',
        created: '',
        updated: '',
      },
    );
    assert.match(user.created ?? '', TIMESTAMP);
    assert.match(user.updated ?? '', TIMESTAMP);
    assert.doesNotMatch(reply.text, /\$2[aby]\$|correct horse/);
    assert.equal(userOf(await lookUp({ sort: 'id', parameters: { id: annId } })).user_id, annId);
  });

  test('by email, case-insensitively and trimmed', async () => {
    for (const email of [
      'ann.example@example.com',
      'ANN.EXAMPLE@EXAMPLE.COM',
      ' Ann.Example@Example.com ',
    ]) {
      const user = userOf(await lookUp({ sort: 'email', parameters: { email } }));
      assert.equal(user.user_id, annId);
      assert.equal(user.email, 'Ann.Example@Example.com');
    }
  });

  test('nobody → 204 not_found (or 404 with DESKGATE_NOT_FOUND_STATUS=404)', async () => {
    assertNoContent(await lookUp({ parameters: { id: 2147483647 } }));
    assertNoContent(await lookUp({ sort: 'email', parameters: { email: 'nobody@example.com' } }));
    // LIKE-style wildcards are not patterns.
    assertNoContent(await lookUp({ sort: 'email', parameters: { email: 'ann%' } }));
    const strictReply = await lookUp({ parameters: { id: 2147483647 } }, strict);
    assert.equal(strictReply.status, 404);
    assert.equal(strictReply.body?.code, 'not_found');
    assert.equal(strictReply.body?.data, 'No items found.');
  });

  test('bad sort → 400 invalid_request; bad parameters → 400 invalid_parameters', async () => {
    for (const sort of ['name', 'ID', '', 1, null]) {
      const reply = await lookUp({ sort, parameters: { id: 1 } });
      assert.equal(reply.status, 400, reply.text);
      assert.equal(reply.body?.code, 'invalid_request');
      assert.match(String(reply.body?.data), /sort must be "id" or "email"/);
    }
    const cases: [Record<string, unknown>, string][] = [
      [{ parameters: { id: 0 } }, 'parameters.id'],
      [{ parameters: { id: '2147483648' } }, 'parameters.id'],
      [{ parameters: {} }, 'parameters.id'],
      [{ parameters: { email: 'a@b.c' } }, 'parameters.email'],
      [{ sort: 'email', parameters: { email: '' } }, 'parameters.email'],
      [{ sort: 'email', parameters: { email: 'x'.repeat(256) } }, 'parameters.email'],
      [{ sort: 'email', parameters: { id: 1 } }, 'parameters.email'],
    ];
    for (const [body, field] of cases) {
      const reply = await lookUp(body);
      assert.equal(reply.status, 400, JSON.stringify(body));
      assert.equal(reply.body?.code, 'invalid_parameters');
      assert.ok(
        reply.body?.errors?.some((e) => e.field === field),
        `${JSON.stringify(body)}: ${reply.text}`,
      );
    }
  });

  test('needs the users:read scope, and GET', async () => {
    const noScope = await lookUp({ parameters: { id: annId } }, server, readWrite);
    assert.equal(noScope.status, 403);
    assert.equal(noScope.body?.code, 'insufficient_scope');
    assert.match(String(noScope.body?.data), /users:read/);
    const post = await call(server.url, {
      method: 'POST',
      headers: { apikey: key },
      body: { query: 'user', condition: 'specific', parameters: { id: annId } },
    });
    assert.equal(post.status, 405);
    assert.equal(post.headers.allow, 'GET');
  });

  test('a user user/add made, by email: its phone as digits, its time zone', async () => {
    const made = await call(server.url, {
      method: 'POST',
      headers: { apikey: key },
      body: userBody({ email: 'made.here@example.com', phone: '(061) 234-5678', timezone: 'UTC' }),
    });
    assert.equal(made.status, 200, made.text);
    const found = userOf(
      await lookUp({ sort: 'email', parameters: { email: 'MADE.HERE@example.com' } }),
    );
    assert.equal(found.user_id, String(made.body?.data));
    assert.equal(found.phone, '0612345678');
    assert.equal(found.timezone, 'UTC');
  });

  // Users osTicket made: rows only its layout has (the form entry, user__cdata).
  if (database.kind === 'osticket') {
    describe("osTicket's own users", () => {
      const db = () => database.osticket as NonNullable<typeof database.osticket>;
      let staffMade: number;
      before(async () => {
        staffMade = await insertStaffMadeUser(db(), 'StaffMade@Example.com');
      });

      test('a user osTicket made, by id and by email, phone from its form entry', async () => {
        const user = userOf(await lookUp({ parameters: { id: staffMade } }));
        assert.deepEqual(
          { ...user, created: '', updated: '' },
          {
            user_id: String(staffMade),
            name: 'Staff Made',
            email: 'StaffMade@Example.com',
            org_id: '0',
            status: '0',
            timezone: 'Europe/Lisbon',
            phone: '5551234',
            created: '',
            updated: '',
          },
        );
        assert.match(user.created ?? '', TIMESTAMP);
        const byEmail = userOf(
          await lookUp({ sort: 'email', parameters: { email: 'staffmade@EXAMPLE.com' } }),
        );
        assert.equal(byEmail.user_id, String(staffMade));
      });

      test('phones as stored: a form answer unchanged, else the __cdata row', async () => {
        const p = db().prefix;
        const phoneOf = async (id: number) => userOf(await lookUp({ parameters: { id } })).phone;
        // osTicket's phone field with its extension: the digits, X, the extension.
        const withExtension = await insertStaffMadeUser(db(), 'extension@example.com');
        await db().query(
          `UPDATE ${p}form_entry_values v JOIN ${p}form_entry e ON e.id = v.entry_id
           JOIN ${p}form_field f ON f.id = v.field_id
           SET v.value = '0612345678X12' WHERE e.object_id = ? AND f.name = 'phone'`,
          [withExtension],
        );
        assert.equal(await phoneOf(withExtension), '0612345678X12');
        // The PHP service wrote only user__cdata, its phone unquoted in SQL (0612345678 → 612345678).
        const phpMade = await db().insert(
          `INSERT INTO ${p}user (org_id, default_email_id, status, name, created, updated)
           VALUES (1, 1, 1, 'Php Made', NOW(), NOW())`,
        );
        await db().query(`INSERT INTO ${p}user__cdata (user_id, phone) VALUES (?, 0612345678)`, [
          phpMade,
        ]);
        assert.equal(await phoneOf(phpMade), '612345678');
        // Without user__cdata (osTicket creates it lazily) such a user has no phone.
        await db().query(`RENAME TABLE ${p}user__cdata TO ${p}user__cdata_away`);
        try {
          assert.equal(await phoneOf(phpMade), '');
          assert.equal(await phoneOf(withExtension), '0612345678X12');
        } finally {
          await db().query(`RENAME TABLE ${p}user__cdata_away TO ${p}user__cdata`);
        }
      });
    });
  }
});
