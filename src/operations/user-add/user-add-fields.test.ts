import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { assertError } from '../../../test/helpers/assertions.ts';
import { describeEachDatabaseKind } from '../../../test/helpers/each-database.ts';
import { call, type Reply, userBody, userFields } from '../../../test/helpers/http.ts';
import { useKindServer } from '../../../test/helpers/kind-server.ts';
import {
  readUserRowsOfKind,
  userRowCountsOfKind,
  userTableCountsOfKind,
} from '../../../test/helpers/user-rows-of-kind.ts';

const INTEGER_FIELDS = ['phone', 'org_id', 'default_email_id', 'status'] as const;
const ALL_FIELDS = [
  'name',
  'email',
  'password',
  'timezone',
  'phone',
  'org_id',
  'default_email_id',
  'status',
] as const;

/** A unique address of exactly `length` characters, valid by RFC 5321 (local part ≤ 64, labels ≤ 63). */
function emailOfLength(length: number): string {
  const localLength = Math.min(64, length - '@b.com'.length);
  const local = `x${Math.random().toString(36).slice(2, 10)}`
    .padEnd(localLength, 'a')
    .slice(0, localLength);
  const labels: string[] = [];
  let rest = length - localLength - '@.com'.length;
  while (rest > 0) {
    const label = Math.min(63, rest - (labels.length === 0 ? 0 : 1));
    labels.push('b'.repeat(label));
    rest -= label + (labels.length === 1 ? 0 : 1);
  }
  const email = `${local}@${labels.join('.')}.com`;
  assert.equal(email.length, length);
  return email;
}

/** Field names reported for a 400 invalid_parameters reply, sorted, each once (a field may have several messages). */
function reportedFields(reply: Reply): string[] {
  assertError(reply, 400, 'invalid_parameters');
  const errors = reply.body?.errors ?? [];
  for (const error of errors) {
    assert.equal(typeof error.message, 'string');
    assert.notEqual(error.message, '');
  }
  return [...new Set(errors.map((e) => e.field))].sort();
}

describeEachDatabaseKind('user/add field rules', (database) => {
  const server = useKindServer(database);
  const osticketMode = database.kind === 'osticket';
  let key: string;
  before(async () => {
    ({ key } = database.osticket?.writeKey ?? (await server.createKey({ scopes: ['write'] })));
  });

  function add(overrides: Record<string, unknown>): Promise<Reply> {
    return call(server.url, {
      method: 'POST',
      headers: { apikey: key },
      body: userBody(overrides),
    });
  }

  function addParameters(parameters: unknown): Promise<Reply> {
    return call(server.url, {
      method: 'POST',
      headers: { apikey: key },
      body: { query: 'user', condition: 'add', parameters },
    });
  }

  async function assertAccepted(overrides: Record<string, unknown>): Promise<number> {
    const reply = await add(overrides);
    assert.equal(reply.status, 200, `${JSON.stringify(overrides)} → ${reply.text}`);
    assert.match(String(reply.body?.data), /^[1-9][0-9]*$/);
    return Number(reply.body?.data);
  }

  async function assertRejected(field: string, value: unknown): Promise<void> {
    const reply = await add({ [field]: value });
    assert.deepEqual(
      reportedFields(reply),
      [`parameters.${field}`],
      `${field}=${JSON.stringify(value)} → ${reply.text}`,
    );
  }

  const rejected: Record<(typeof ALL_FIELDS)[number], [string, unknown][]> = {
    name: [
      ['a number', 5],
      ['null', null],
      ['an array', ['Ann']],
      ['empty', ''],
      ['only spaces', '   \t '],
      ['129 characters', 'n'.repeat(129)],
      ['a tab inside', 'Ann\tExample'],
      ['a newline inside', 'Ann\nExample'],
      ['a NUL', 'Ann\u0000'],
      ['a BEL', 'A\u0007nn'],
      ['a DEL', 'A\u007fnn'],
      ['a C1 control', 'A\u0085nn'],
      // A name is shown in agents' HTML pages (osTicket prints it unescaped in one of them).
      ['an HTML tag', '<b>Ann</b>'],
      ['a <', 'Ann < Bob'],
      ['a >', 'Ann > Bob'],
    ],
    email: [
      ['a number', 42],
      ['null', null],
      ['empty', ''],
      ['no @', 'ann.example.com'],
      ['no domain', 'ann@'],
      ['no local part', '@example.com'],
      ['two @', 'ann@@example.com'],
      ['a space inside', 'ann example@example.com'],
      ['a display name', 'Ann <ann@example.com>'],
      ['256 characters', emailOfLength(256)],
    ],
    password: [
      ['a number', 1234],
      ['null', null],
      ['an object', { hash: 'x' }],
      ['empty', ''],
      ['256 characters', 'p'.repeat(256)],
      ["5 characters (osTicket's minimum is 6)", 'p'.repeat(5)],
      ['5 characters, astral', '😀'.repeat(5)],
    ],
    timezone: [
      ['a number', 1],
      ['null', null],
      ['empty', ''],
      ['an unknown zone', 'Mars/Base'],
      ['an offset', '+01:00'],
      ['an offset with UTC', 'UTC+01:00'],
      ['65 characters', `Europe/${'L'.repeat(58)}`],
      ['a path', '../../etc/passwd'],
    ],
    phone: [
      ['a boolean', true],
      ['null', null],
      ['a fraction', 1.5],
      ['negative', -1],
      ['16 digits', 1_000_000_000_000_000],
      ['21 digits as a string', '1'.repeat(21)],
      ['an extension', '555 1234 x12'],
      ['letters', '12a'],
      ['punctuation only', '--'],
      ['an object', {}],
    ],
    org_id: [
      ['a boolean', false],
      ['a fraction', 0.5],
      ['negative', -1],
      ['2147483648', 2_147_483_648],
      ['"2147483648"', '2147483648'],
      ['letters', 'abc'],
      ['an array', [1]],
    ],
    default_email_id: [
      ['null', null],
      ['a fraction', 2.25],
      ['negative', -5],
      ['2147483648', 2_147_483_648],
      ['a decimal string', '1.0'],
      ['a spaced string', ' 1'],
    ],
    status: [
      ['a boolean', true],
      ['negative', -1],
      ['2147483648', 2_147_483_648],
      ['a hex string', '0x1'],
      ['an exponent string', '1e3'],
      ['an object', { value: 1 }],
    ],
  };

  for (const [field, cases] of Object.entries(rejected)) {
    for (const [label, value] of cases) {
      test(`${field}: ${label} → 400 naming parameters.${field}`, async () => {
        await assertRejected(field, value);
      });
    }
  }

  for (const field of ALL_FIELDS) {
    test(`${field}: missing → 400 "parameters.${field} is required"`, async () => {
      const parameters = userFields();
      delete parameters[field];
      const reply = await addParameters(parameters);
      assert.deepEqual(reportedFields(reply), [`parameters.${field}`]);
      assert.deepEqual(reply.body?.errors, [
        { field: `parameters.${field}`, message: 'is required' },
      ]);
    });
  }

  test('an extra field → 400 naming it; several extras are all named', async () => {
    const one = await addParameters({ ...userFields(), id: 5 });
    assert.deepEqual(reportedFields(one), ['parameters.id']);
    assert.match(String(one.body?.data), /parameters\.id/);
    const two = await addParameters({ ...userFields(), username: 'ann', notes: 'x' });
    assert.deepEqual(reportedFields(two), ['parameters.notes', 'parameters.username']);
  });

  test('parameters that are not an object → 400 invalid_parameters', async () => {
    for (const parameters of [undefined, null, 'ann', 7, [userFields()]]) {
      const reply = await addParameters(parameters);
      assertError(reply, 400, 'invalid_parameters');
    }
  });

  test('every problem in the body is reported at once', async () => {
    const reply = await addParameters({
      name: 'Ann\u0001',
      email: 'not an address',
      password: '',
      timezone: 'Mars/Base',
      phone: '1234567890123456789012',
      org_id: -1,
      status: 1.5,
      favourite_colour: 'blue',
    });
    assert.deepEqual(reportedFields(reply), [
      'parameters.default_email_id',
      'parameters.email',
      'parameters.favourite_colour',
      'parameters.name',
      'parameters.org_id',
      'parameters.password',
      'parameters.phone',
      'parameters.status',
      'parameters.timezone',
    ]);
    for (const field of ['email', 'timezone', 'phone', 'org_id']) {
      assert.match(String(reply.body?.data), new RegExp(`parameters\\.${field}`));
    }
  });

  test('an empty parameters object reports all eight fields as required', async () => {
    const reply = await addParameters({});
    assert.deepEqual(reportedFields(reply), ALL_FIELDS.map((f) => `parameters.${f}`).sort());
    for (const error of reply.body?.errors ?? []) assert.equal(error.message, 'is required');
  });

  test('name and email are trimmed before they are checked and stored', async () => {
    const email = emailOfLength(40);
    const id = await assertAccepted({ name: '  \tAnn Trimmed \n', email: `  ${email}\t` });
    const stored = await readUserRowsOfKind(database, id);
    assert.equal(stored.user?.name, 'Ann Trimmed');
    assert.deepEqual(
      stored.emails.map((e) => e.address),
      [email],
    );
    // A 255-character address is accepted even with spaces around it.
    await assertAccepted({ email: ` ${emailOfLength(255)} ` });
  });

  test('the email keeps its case as given', async () => {
    const email = `Ann.MixedCase.${Date.now()}@Example.COM`;
    const id = await assertAccepted({ email });
    const stored = await readUserRowsOfKind(database, id);
    assert.equal(stored.emails[0]?.address, email);
  });

  test('a 128-character name is accepted; length counts characters, not UTF-16 units', async () => {
    await assertAccepted({ name: 'n'.repeat(128) });
    // osTicket's utf8mb3 tables hold no 4-byte character (user-add-osticket-rows.test.ts).
    const long = osticketMode ? 'é✓'.repeat(64) : 'é😀'.repeat(64);
    const id = await assertAccepted({ name: long });
    assert.equal((await readUserRowsOfKind(database, id)).user?.name, long);
    await assertRejected('name', '😀'.repeat(129));
  });

  test('a one-character name and a name with accents and spaces are accepted', async () => {
    await assertAccepted({ name: 'A' });
    await assertAccepted({ name: 'José da Silva-Müller' });
  });

  test('a 255-character password and a six-character password are accepted', async () => {
    await assertAccepted({ password: 'p'.repeat(255) });
    await assertAccepted({ password: 'p'.repeat(6) });
  });

  test('known IANA time zones are accepted and stored as given', async () => {
    for (const timezone of ['Europe/Lisbon', 'UTC', 'America/Argentina/Buenos_Aires']) {
      const id = await assertAccepted({ timezone });
      assert.equal((await readUserRowsOfKind(database, id)).accounts[0]?.timezone, timezone);
    }
  });

  test("a zone name in another letter case is stored in the runtime's spelling", async () => {
    for (const [sent, stored] of [
      ['utc', 'UTC'],
      ['europe/lisbon', 'Europe/Lisbon'],
    ]) {
      const id = await assertAccepted({ timezone: sent });
      assert.equal((await readUserRowsOfKind(database, id)).accounts[0]?.timezone, stored);
    }
  });

  test('a too-long time zone gets one message, not two', async () => {
    const reply = await call(server.url, {
      method: 'POST',
      headers: { apikey: key },
      body: userBody({ timezone: `Europe/${'x'.repeat(70)}` }),
    });
    assert.equal(reply.status, 400);
    assert.deepEqual(reply.body?.errors, [
      { field: 'parameters.timezone', message: 'must be at most 64 characters' },
    ]);
  });

  test("phone is stored as osTicket's phone field stores it: digits as typed, punctuation stripped", async () => {
    const stored = async (phone: unknown) =>
      (await readUserRowsOfKind(database, await assertAccepted({ phone }))).user?.phone;
    assert.equal(await stored('0612345678'), '0612345678');
    assert.equal(await stored('+351 (21) 000-00.00'), '351210000000');
    assert.equal(await stored(999_999_999_999_999), '999999999999999');
    assert.equal(await stored('9'.repeat(20)), '9'.repeat(20));
    assert.equal(await stored(0), '');
    assert.equal(await stored(''), '');
  });

  // In osTicket mode an organisation and status bit 1 need the key's organizations grant
  // (user-add-osticket-rows.test.ts); the limits themselves are the parameters' on every kind.
  for (const [field, column] of [
    ['org_id', 'orgId'],
    ['status', 'status'],
  ] as const) {
    test(`${field}: 0 and 2147483647 are accepted, as numbers and digit strings`, async () => {
      const values = osticketMode ? [0, '0', '000'] : [0, '0', 2147483647, '2147483647', '007'];
      for (const value of values) {
        const id = await assertAccepted({ [field]: value });
        const stored = await readUserRowsOfKind(database, id);
        assert.equal(stored.user?.[column], Number(value));
      }
    });
  }

  // osTicket's user.default_email_id is the id of the user's address row, whatever was sent.
  test(`default_email_id: 2147483647 and a digit string are accepted${osticketMode ? '' : ' and stored as given'}`, async () => {
    for (const value of [2147483647, '42']) {
      const id = await assertAccepted({ default_email_id: value });
      const stored = await readUserRowsOfKind(database, id);
      const expected = osticketMode ? stored.emails[0]?.id : Number(value);
      assert.equal(stored.user?.defaultEmailId, expected);
    }
  });

  test('letters in any integer field are rejected, field by field', async () => {
    for (const field of INTEGER_FIELDS) {
      const reply = await add({ [field]: 'x' });
      assert.deepEqual(reportedFields(reply), [`parameters.${field}`]);
    }
  });

  test('no rejected request wrote anything', async () => {
    // Every accepted request above made one user; every rejected one must have made none.
    const counted = await userRowCountsOfKind(database);
    const [users, emails, accounts, audit] = await userTableCountsOfKind(database);
    assert.ok(users > 0);
    assert.equal(emails, users);
    assert.equal(accounts, users);
    assert.equal(audit, users);
    await add({ email: 'broken' });
    await add({ name: '' });
    await addParameters({});
    assert.deepEqual(await userRowCountsOfKind(database), counted);
  });
});
