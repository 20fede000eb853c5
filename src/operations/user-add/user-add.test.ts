import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { before, describe, test } from 'node:test';
import { verify } from '@node-rs/bcrypt';
import { assertError } from '../../../test/helpers/assertions.ts';
import { describeEachDatabaseKind } from '../../../test/helpers/each-database.ts';
import { call, type Reply, userBody } from '../../../test/helpers/http.ts';
import { useKindServer } from '../../../test/helpers/kind-server.ts';
import {
  findUserIdsOfKind,
  readAuditOfKind,
  readUserRowsOfKind,
  storedRowsAsText,
  userRowCountsOfKind,
} from '../../../test/helpers/user-rows-of-kind.ts';
import { waitForOutput } from '../../../test/support/database-rows.ts';

const TIMESTAMP = /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/;

/** Hashes in the shapes the spec names; each must be stored exactly as given. */
const GIVEN_HASHES: [string, string][] = [
  ['bcrypt $2a$', '$2a$10$N9qo8uLOickgx2ZMRZoMyeIjZAgcfl7p92ldGxad68LJZdL17lhWy'],
  ['bcrypt $2b$', '$2b$12$R9h/cIPz0gi.URNNX3kh2OPST9/PgBkqquzi.Ss7KIUgO2t0jWMUW'],
  ['bcrypt $2y$', '$2y$10$.vGA1O9wmRjrwAVXD98HNOgsNpDczlqm3Jq7KnEd1rVAGv3Fykk1a'],
  [
    'argon2id',
    '$argon2id$v=19$m=65536,t=3,p=4$c29tZXNhbHRzb21lc2FsdA$RdescudvJCsgt3ub+b+dWRWJTmaaJObG',
  ],
  ['argon2i', '$argon2i$v=19$m=16,t=2,p=1$c29tZXNhbHQ$Ik4WOOJ5iDk6Bz8/4v+7Ug'],
  // md5('secret'): what clients of the PHP service send; osTicket verifies and upgrades it.
  ['MD5 hex digest', '5ebe2294ecd0e0f08eab7690d2a6ee69'],
];

function uniqueEmail(tag: string): string {
  return `${tag}.${Date.now()}.${Math.random().toString(36).slice(2)}@example.com`;
}

function newId(reply: Reply): number {
  assert.equal(reply.status, 200, reply.text);
  assert.equal(reply.body?.status, 'Success');
  assert.equal(typeof reply.body?.data, 'string');
  assert.match(String(reply.body?.data), /^[1-9][0-9]*$/);
  return Number(reply.body?.data);
}

function assertDuplicate(reply: Reply, existingId: number): void {
  assertError(reply, 409, 'duplicate_email');
  assert.equal(reply.body?.existing_id, String(existingId));
}

// osTicket-only behaviour (its exact rows, grants, refusals) is in user-add-osticket-rows.test.ts.
describeEachDatabaseKind('user/add', (database) => {
  const server = useKindServer(database);
  const osticketMode = database.kind === 'osticket';
  let key: string;
  let keyId: number;
  /** A key that may not add users: scope read, or osTicket's key without "Can Create Tickets". */
  let readKey: string;
  before(async () => {
    const { osticket } = database;
    if (osticket) {
      ({ key, id: keyId } = osticket.writeKey);
      ({ key: readKey } = osticket.readKey);
      return;
    }
    ({ key, id: keyId } = await server.createKey({ scopes: ['write'] }));
    ({ key: readKey } = await server.createKey({ scopes: ['read'] }));
  });

  function add(overrides: Record<string, unknown> = {}, method = 'POST'): Promise<Reply> {
    return call(server.url, { method, headers: { apikey: key }, body: userBody(overrides) });
  }

  const counts = () => userRowCountsOfKind(database);

  test('a POST with the eight fields → 200, data the new id as a string', async () => {
    const reply = await add();
    assert.equal(reply.headers['content-type'], 'application/json; charset=utf-8');
    assert.equal(typeof reply.body?.time, 'number');
    assert.deepEqual(Object.keys(reply.body ?? {}).sort(), ['data', 'status', 'time']);
    const id = newId(reply);
    const second = newId(await add());
    assert.ok(second > id, 'a second user gets a new id');
  });

  test('the user, its email and its account are stored with the values sent', async () => {
    const email = uniqueEmail('Stored.Values');
    // In osTicket mode an organisation needs the key's grant and must exist (the rows file's tests).
    const orgId = osticketMode ? 0 : 7;
    const id = newId(
      await add({
        name: 'Stored Values',
        email,
        timezone: 'America/New_York',
        phone: '12125550100',
        org_id: orgId,
        default_email_id: 0,
        status: 2,
      }),
    );
    const stored = await readUserRowsOfKind(database, id);
    assert.ok(stored.user);
    assert.equal(stored.user.name, 'Stored Values');
    assert.equal(stored.user.phone, '12125550100');
    assert.equal(stored.user.orgId, orgId);
    assert.equal(stored.user.status, 2);
    assert.match(stored.user.created, TIMESTAMP);
    assert.match(stored.user.updated, TIMESTAMP);
    assert.equal(stored.emails.length, 1);
    assert.equal(stored.emails[0]?.address, email);
    assert.equal(stored.accounts.length, 1);
    assert.equal(stored.accounts[0]?.timezone, 'America/New_York');
    assert.match(String(stored.accounts[0]?.registered), TIMESTAMP);
  });

  test('default_email_id 0 stores the id of the new email row', async () => {
    const id = newId(await add({ default_email_id: 0 }));
    const stored = await readUserRowsOfKind(database, id);
    const emailId = Number(stored.emails[0]?.id);
    assert.ok(emailId > 0);
    assert.equal(stored.user?.defaultEmailId, emailId);
  });

  // osTicket's user.default_email_id is the id of the user's address row, whatever was sent.
  test(
    osticketMode
      ? 'a non-zero default_email_id stores the id of the new email row'
      : 'a non-zero default_email_id is stored as given',
    async () => {
      for (const given of [1, 987654, 2147483647]) {
        const id = newId(await add({ default_email_id: given }));
        const stored = await readUserRowsOfKind(database, id);
        const expected = osticketMode ? stored.emails[0]?.id : given;
        assert.equal(stored.user?.defaultEmailId, expected);
      }
    },
  );

  test('PUT is accepted as well as POST', async () => {
    const id = newId(await add({}, 'PUT'));
    assert.ok((await readUserRowsOfKind(database, id)).user);
  });

  test('GET → 405 with Allow: POST, PUT, and nothing written', async () => {
    const email = uniqueEmail('get');
    const reply = await add({ email }, 'GET');
    assertError(reply, 405, 'method_not_allowed');
    assert.equal(reply.headers.allow, 'POST, PUT');
    assert.deepEqual(await findUserIdsOfKind(database, email), []);
  });

  test('a name with < or > → 400 naming it, nothing written: osTicket prints names unescaped', async () => {
    for (const name of ['<script>alert(1)</script>', 'Ann <b>', 'a > b']) {
      const before = await counts();
      const reply = await add({ email: uniqueEmail('html'), name });
      assertError(reply, 400, 'invalid_parameters');
      assert.deepEqual(
        reply.body?.errors?.map((e) => e.field),
        ['parameters.name'],
        name,
      );
      assert.deepEqual(await counts(), before, `${name}: nothing written`);
    }
  });

  describe('passwords', () => {
    /** The hash a plain password gets: deskgate's $2y$, or osTicket's own $2a$08$. */
    const PLAIN_HASH = osticketMode
      ? /^\$2a\$08\$[./A-Za-z0-9]{53}$/
      : /^\$2y\$\d\d\$[./A-Za-z0-9]{53}$/;

    test(`a plain password is stored bcrypt-hashed (${osticketMode ? '$2a$' : '$2y$'}), never in clear`, async () => {
      const password = `clear-${Math.random().toString(36).slice(2)}-secret`;
      const requestId = `password-test-${Date.now()}`;
      const id = newId(
        await call(server.url, {
          method: 'POST',
          headers: { apikey: key, 'X-Request-Id': requestId },
          body: userBody({ password }),
        }),
      );
      const stored = await readUserRowsOfKind(database, id);
      const hash = String(stored.accounts[0]?.passwordHash);
      assert.match(hash, PLAIN_HASH);
      assert.ok(!hash.includes(password));
      assert.equal(await verify(password, hash), true);
      assert.equal(await verify(`${password}x`, hash), false);
      // Nowhere else either: not in any stored value, not in the server's output.
      const everything = await storedRowsAsText(database);
      assert.ok(!everything.includes(password));
      await waitForOutput(server, requestId);
      assert.ok(!server.output.join('\n').includes(password));
      if (database.kind === 'sqlite') {
        const path = database.url.slice('sqlite:'.length);
        for (const file of [path, `${path}-wal`]) {
          let bytes: Buffer;
          try {
            bytes = readFileSync(file);
          } catch {
            continue;
          }
          assert.equal(bytes.includes(password), false, `${file} holds the password`);
        }
      }
    });

    // osTicket cannot verify argon2: there it is refused (user-add-osticket-rows.test.ts).
    for (const [label, hash] of GIVEN_HASHES.filter(
      ([l]) => !(osticketMode && l.startsWith('argon')),
    )) {
      test(`a ${label} hash is stored exactly as given`, async () => {
        const id = newId(await add({ password: hash }));
        const stored = await readUserRowsOfKind(database, id);
        assert.equal(stored.accounts[0]?.passwordHash, hash);
      });
    }

    test('a value that only looks like the start of a hash is hashed like any password', async () => {
      for (const password of [
        '$2y$10$tooshort',
        '$argon2id$',
        `${GIVEN_HASHES[0]?.[1]}x`,
        // An upper-case or 31-character "digest" is not what PHP's md5() prints.
        '5EBE2294ECD0E0F08EAB7690D2A6EE69',
        '5ebe2294ecd0e0f08eab7690d2a6ee6',
        '$2x$10$N9qo8uLOickgx2ZMRZoMyeIjZAgcfl7p92ldGxad68LJZdL17lhWy',
      ]) {
        const id = newId(await add({ password }));
        const hash = String((await readUserRowsOfKind(database, id)).accounts[0]?.passwordHash);
        assert.notEqual(hash, password);
        assert.match(hash, PLAIN_HASH);
        assert.equal(await verify(password, hash), true);
      }
    });

    test('the same password gives two different hashes (salted)', async () => {
      const a = newId(await add({ password: 'same password' }));
      const b = newId(await add({ password: 'same password' }));
      const hashA = (await readUserRowsOfKind(database, a)).accounts[0]?.passwordHash;
      const hashB = (await readUserRowsOfKind(database, b)).accounts[0]?.passwordHash;
      assert.notEqual(hashA, hashB);
    });
  });

  describe('duplicate email', () => {
    test('the same address again → 409 duplicate_email with existing_id, nothing written', async () => {
      const email = uniqueEmail('dup');
      const id = newId(await add({ email }));
      const before = await counts();
      assertDuplicate(await add({ email, name: 'Someone Else' }), id);
      assert.deepEqual(await counts(), before);
      assert.deepEqual(await findUserIdsOfKind(database, email), [id]);
    });

    test('an address differing only in case (or surrounding spaces) is a duplicate', async () => {
      const email = uniqueEmail('Case.Check');
      const id = newId(await add({ email }));
      const before = await counts();
      for (const variant of [
        email.toUpperCase(),
        email.toLowerCase(),
        `  ${email.toUpperCase()}  `,
        email.replace('Case', 'cASE'),
      ]) {
        assertDuplicate(await add({ email: variant }), id);
      }
      assert.deepEqual(await counts(), before);
    });

    test('the duplicate check does not depend on which form came first', async () => {
      const lower = uniqueEmail('first.lower').toLowerCase();
      const id = newId(await add({ email: lower }));
      assertDuplicate(await add({ email: lower.toUpperCase() }), id);
    });

    test('a duplicate is reported even when the password is already a hash', async () => {
      const email = uniqueEmail('dup.hash');
      const id = newId(await add({ email }));
      assertDuplicate(await add({ email, password: GIVEN_HASHES[0]?.[1] }), id);
    });
  });

  describe('audit log', () => {
    test('one row per successful user/add: time, key id, client address, operation, new id', async () => {
      const table = osticketMode ? 'deskgate_audit_log' : 'audit_log';
      const auditBefore = (await counts())[table];
      const id = newId(await add());
      assert.equal((await counts())[table], (auditBefore ?? 0) + 1);
      const audit = await readAuditOfKind(database, id);
      assert.equal(audit.length, 1);
      const [entry] = audit;
      assert.match(String(entry?.at), TIMESTAMP);
      assert.equal(Number(entry?.api_key_id), keyId);
      assert.equal(entry?.client_ip, '127.0.0.1');
      assert.equal(entry?.operation, 'user/add');
      assert.equal(entry?.target_id, String(id));
    });

    test('no row for rejected requests', async () => {
      const email = uniqueEmail('audit');
      newId(await add({ email }));
      const before = await counts();
      assert.equal((await add({ email: 'not-an-address' })).status, 400);
      assert.equal((await add({ email })).status, 409);
      assert.equal((await add({ email: uniqueEmail('audit.get') }, 'GET')).status, 405);
      const readOnly = await call(server.url, {
        method: 'POST',
        headers: { apikey: readKey },
        body: userBody(),
      });
      assert.equal(readOnly.status, 403);
      const noKey = await call(server.url, { method: 'POST', body: userBody() });
      assert.equal(noKey.status, 401);
      assert.deepEqual(await counts(), before);
    });
  });

  describe('scope', () => {
    test('a read-only key → 403 insufficient_scope, and nothing is written', async () => {
      const before = await counts();
      const email = uniqueEmail('read.only');
      const reply = await call(server.url, {
        method: 'POST',
        headers: { apikey: readKey },
        body: userBody({ email }),
      });
      assertError(reply, 403, 'insufficient_scope');
      assert.deepEqual(await counts(), before);
      assert.deepEqual(await findUserIdsOfKind(database, email), []);
    });

    test('a read-only key is refused before its parameters are looked at', async () => {
      const reply = await call(server.url, {
        method: 'POST',
        headers: { apikey: readKey },
        body: { query: 'user', condition: 'add', parameters: { name: 5 } },
      });
      assertError(reply, 403, 'insufficient_scope');
    });

    // osTicket's keys have no scopes to combine: they are granted (the rows file's tests).
    test('a key with both scopes may add users', {
      skip: osticketMode && 'osTicket keys have no scopes',
    }, async () => {
      const { key: both } = await server.createKey({ scopes: ['read', 'write'] });
      const reply = await call(server.url, {
        method: 'POST',
        headers: { apikey: both },
        body: userBody(),
      });
      newId(reply);
    });
  });
});
