import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { runCli } from '../helpers/cli.ts';
import { describeEachDatabase, describeWithDatabase, SQLITE } from '../helpers/each-database.ts';
import { call, userBody } from '../helpers/http.ts';
import { useTestServer } from '../helpers/test-server.ts';
import { assertCleanFailure, runCliJson, runCliText } from './cli-assertions.ts';

const USER_FIELDS = [
  'created',
  'default_email_id',
  'email',
  'id',
  'name',
  'org_id',
  'phone',
  'status',
  'timezone',
  'updated',
];

describeEachDatabase('deskgate users get', (database) => {
  const server = useTestServer({ database });
  let key: string;
  const db = () => ['--database', database.url];
  const password = 'Plain-Password-For-Users-Get-7';
  before(async () => {
    key = server.key;
  });

  async function addUser(overrides: Record<string, unknown>): Promise<string> {
    const reply = await call(server.url, {
      method: 'POST',
      headers: { apikey: key },
      body: userBody({ password, ...overrides }),
    });
    assert.equal(reply.status, 200, reply.text);
    return String(reply.body?.data);
  }

  test('users get ID --json shows exactly the user fields, never the password or its hash', async () => {
    const id = await addUser({
      name: 'Rita Example',
      email: 'Rita.Example@Example.com',
      timezone: 'America/New_York',
      phone: 15551234567,
      org_id: 3,
      default_email_id: 0,
      status: 1,
    });
    const user = await runCliJson<Record<string, unknown>>(['users', 'get', id, ...db()]);
    assert.deepEqual(Object.keys(user).sort(), USER_FIELDS);
    assert.equal(String(user.id), id);
    assert.equal(user.name, 'Rita Example');
    assert.equal(String(user.email).toLowerCase(), 'rita.example@example.com');
    assert.equal(user.timezone, 'America/New_York');
    assert.equal(user.phone, '15551234567');
    assert.equal(String(user.org_id), '3');
    assert.equal(String(user.status), '1');
    // 0 means "the address being created": the stored value is that email row's id.
    assert.notEqual(String(user.default_email_id), '0');
    assert.match(String(user.created), /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
    const raw = JSON.stringify(user);
    assert.ok(!raw.includes(password));
    assert.doesNotMatch(raw, /\$2[aby]\$|\$argon2/);
  });

  test('users get ID without --json shows the user for a person, without the password hash', async () => {
    const id = await addUser({ name: 'Tom Example', phone: '(061) 234-5678' });
    const text = await runCliText(['users', 'get', id, ...db()]);
    assert.match(text, /Tom Example/);
    // The digits as typed: the leading zero is kept.
    assert.match(text, /^phone +0612345678$/m);
    assert.match(text, /Europe\/Lisbon/);
    assert.ok(!text.includes(password));
    assert.doesNotMatch(text, /\$2[aby]\$|\$argon2/);
  });

  test('users get of an unknown user exits 1', async () => {
    assertCleanFailure(await runCli(['users', 'get', '987654', ...db(), '--json']), 1, /987654/);
    assertCleanFailure(await runCli(['users', 'get', '987654', ...db()]), 1, /987654/);
  });
});

// Usage errors, refused before the database is opened: so it is never created or migrated here.
describeWithDatabase('deskgate users get: argument checks', SQLITE, (database) => {
  const db = () => ['--database', database.url];

  test('users get with a bad ID, or none, exits 2', async () => {
    assertCleanFailure(await runCli(['users', 'get', 'me', ...db()]), 2, /ID/);
    assertCleanFailure(await runCli(['users', 'get', ...db(), '--json']), 2);
  });
});
