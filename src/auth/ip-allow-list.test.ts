import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { makeIpAllowList, normalizeAddress, parseIpRange } from './ip-allow-list.ts';

describe('parseIpRange', () => {
  test('an address is a range of its own; a CIDR range keeps its prefix length', () => {
    assert.deepEqual(
      parseIpRange('192.0.2.7').map((part) => String(part)),
      ['192.0.2.7', '32'],
    );
    assert.deepEqual(
      parseIpRange('2001:db8::1').map((part) => String(part)),
      ['2001:db8::1', '128'],
    );
    assert.deepEqual(
      parseIpRange('10.0.0.0/8').map((part) => String(part)),
      ['10.0.0.0', '8'],
    );
    assert.deepEqual(
      parseIpRange('2001:db8::/32').map((part) => String(part)),
      ['2001:db8::', '32'],
    );
  });

  for (const entry of [
    '',
    'localhost',
    '10.0.0.0/33',
    '2001:db8::/129',
    '300.1.1.1',
    '10.0.0.0/',
  ]) {
    test(`${JSON.stringify(entry)} → a RangeError naming it`, () => {
      assert.throws(
        () => parseIpRange(entry),
        (error: unknown) =>
          error instanceof RangeError &&
          error.message === `"${entry}" is not an IP address or CIDR range`,
      );
    });
  }
});

describe('normalizeAddress', () => {
  test('IPv4-mapped IPv6 becomes plain IPv4; IPv6 is written in its short form', () => {
    assert.equal(normalizeAddress('::ffff:127.0.0.1'), '127.0.0.1');
    assert.equal(normalizeAddress('::FFFF:192.0.2.1'), '192.0.2.1');
    assert.equal(normalizeAddress('2001:0db8:0000:0000:0000:0000:0000:0001'), '2001:db8::1');
    assert.equal(normalizeAddress('127.0.0.1'), '127.0.0.1');
  });

  test('what is not an address is returned as it is', () => {
    assert.equal(normalizeAddress(''), '');
    assert.equal(normalizeAddress('unknown'), 'unknown');
  });
});

describe('makeIpAllowList', () => {
  test('an empty list allows every address, even one that does not parse', () => {
    const allows = makeIpAllowList([]);
    for (const address of ['127.0.0.1', '::1', '203.0.113.9', 'garbage']) {
      assert.equal(allows(address), true, address);
    }
  });

  test('addresses and ranges of both families', () => {
    const allows = makeIpAllowList(['10.0.0.0/8', '192.0.2.1', '2001:db8::/32']);
    for (const address of [
      '10.0.0.1',
      '10.255.255.255',
      '192.0.2.1',
      '2001:db8::1',
      '2001:db8:ffff::',
    ]) {
      assert.equal(allows(address), true, address);
    }
    for (const address of ['11.0.0.1', '192.0.2.2', '2001:db9::1', '::1', '127.0.0.1']) {
      assert.equal(allows(address), false, address);
    }
  });

  test('an IPv4-mapped address is matched as IPv4; a mapped range is its IPv4 range', () => {
    assert.equal(makeIpAllowList(['127.0.0.0/8'])('::ffff:127.0.0.1'), true);
    // ::ffff:0:0/96 is the whole IPv4 space written as IPv6; entries are normalised to IPv4.
    assert.equal(makeIpAllowList(['::ffff:0:0/96'])('::ffff:127.0.0.1'), true);
    assert.equal(makeIpAllowList(['::ffff:10.0.0.0/104'])('127.0.0.1'), false);
    assert.equal(makeIpAllowList(['::1'])('127.0.0.1'), false);
  });

  test('an address that does not parse is refused by a non-empty list', () => {
    const allows = makeIpAllowList(['0.0.0.0/0', '::/0']);
    assert.equal(allows('1.2.3.4'), true);
    assert.equal(allows('::1'), true);
    for (const address of ['', 'unknown', '1.2.3.4.5', '::g']) {
      assert.equal(allows(address), false, address);
    }
  });

  test('a bad entry stops the list from being made, naming it', () => {
    assert.throws(() => makeIpAllowList(['10.0.0.0/8', 'nonsense']), /"nonsense"/);
  });
});
