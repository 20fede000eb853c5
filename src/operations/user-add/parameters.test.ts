import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { DeskgateError } from '../../errors.ts';
import { validateParameters } from '../validate-parameters.ts';
import { canonicalTimeZone, userAddParameters } from './parameters.ts';

const VALID = {
  name: 'Ann Example',
  email: 'ann@example.com',
  password: 'correct horse battery staple',
  timezone: 'Europe/Lisbon',
  phone: 351210000000,
  org_id: 0,
  default_email_id: 0,
  status: 1,
};

/** The field errors `parameters` get, as `field message` strings. */
function problems(parameters: unknown): string[] {
  try {
    validateParameters(userAddParameters, parameters, 'user/add');
  } catch (error) {
    assert.ok(error instanceof DeskgateError);
    assert.equal(error.code, 'invalid_parameters');
    return (error.errors ?? []).map((e) => `${e.field} ${e.message}`);
  }
  return [];
}

describe('user/add parameters', () => {
  test('the eight fields are parsed: trimmed text, numbers from digit strings', () => {
    const parsed = validateParameters(
      userAddParameters,
      { ...VALID, name: '  Ann  ', email: ' Ann@Example.com ', phone: '12125550100', org_id: '7' },
      'user/add',
    );
    assert.deepEqual(parsed, {
      ...VALID,
      name: 'Ann',
      email: 'Ann@Example.com',
      phone: '12125550100',
      org_id: 7,
    });
  });

  test('every problem is reported at once, a missing field as "is required"', () => {
    assert.deepEqual(problems({ ...VALID, name: '', email: 'nope', status: undefined, extra: 1 }), [
      'parameters.name must not be empty',
      'parameters.email must be a valid email address',
      'parameters.status is required',
      'parameters.extra is not a parameter of user/add',
    ]);
    assert.equal(problems({}).length, 8);
  });

  const refused: [field: keyof typeof VALID, value: unknown, message: string][] = [
    ['name', '   ', 'must not be empty'],
    ['name', 'x'.repeat(129), 'must be at most 128 characters'],
    ['name', 'Ann\u0000', 'must not contain control characters'],
    ['name', 'Ann\ud800', 'must be valid Unicode (no unpaired \\ud800–\\udfff escapes)'],
    ['email', 'not-an-address', 'must be a valid email address'],
    ['email', `${'a'.repeat(250)}@b.com`, 'must be at most 255 characters'],
    ['password', '', 'must not be empty'],
    ['password', 'x'.repeat(256), 'must be at most 255 characters'],
    ['password', '\udfff', 'must be valid Unicode (no unpaired \\ud800–\\udfff escapes)'],
    ['timezone', 'Mars/Olympus', 'must be an IANA time zone name, e.g. Europe/Lisbon or UTC'],
    ['timezone', '../etc/passwd', 'must be an IANA time zone name, e.g. Europe/Lisbon or UTC'],
    ['timezone', 'Europe/'.repeat(10), 'must be at most 64 characters'],
  ];
  for (const [field, value, message] of refused) {
    test(`${field} ${JSON.stringify(value).slice(0, 40)} → "${message}"`, () => {
      assert.deepEqual(problems({ ...VALID, [field]: value }), [`parameters.${field} ${message}`]);
    });
  }

  test("phone: digits as typed, osTicket's punctuation stripped; the id fields up to 2147483647", () => {
    const phoneOf = (phone: unknown) =>
      validateParameters(userAddParameters, { ...VALID, phone }, 'user/add').phone;
    assert.equal(phoneOf('0612345678'), '0612345678');
    assert.equal(phoneOf('+351 (21) 000.00-00'), '351210000000');
    assert.equal(phoneOf(5551234), '5551234');
    for (const none of [0, '0', '', '  ']) assert.equal(phoneOf(none), '', String(none));
    assert.equal(phoneOf('9'.repeat(20)), '9'.repeat(20));
    for (const bad of ['9'.repeat(21), '12a', '--', '555 1234 x12', 1_000_000_000_000_000, -1, 1.5])
      assert.equal(problems({ ...VALID, phone: bad }).length, 1, String(bad));
    for (const field of ['org_id', 'default_email_id', 'status']) {
      assert.deepEqual(problems({ ...VALID, [field]: 2147483647 }), [], field);
      assert.equal(problems({ ...VALID, [field]: 2147483648 }).length, 1, field);
    }
  });
});

describe('canonicalTimeZone', () => {
  test("a known zone in any letter case comes back in the runtime's spelling", () => {
    assert.equal(canonicalTimeZone('utc'), 'UTC');
    assert.equal(canonicalTimeZone('europe/lisbon'), 'Europe/Lisbon');
    assert.equal(canonicalTimeZone('America/New_York'), 'America/New_York');
  });

  test('a link stays the zone that was sent', () => {
    assert.equal(canonicalTimeZone('Europe/Kiev'), 'Europe/Kiev');
  });

  test('unknown names and shapes that are not zone names give undefined', () => {
    for (const name of [
      'Mars/Olympus',
      '',
      '/UTC',
      'UTC/',
      'Europe//Lisbon',
      'UTC;drop',
      '+01:00',
    ]) {
      assert.equal(canonicalTimeZone(name), undefined, name);
    }
  });
});
