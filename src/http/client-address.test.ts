import assert from 'node:assert/strict';
import type { IncomingMessage } from 'node:http';
import { describe, test } from 'node:test';
import { makeClientAddress } from './client-address.ts';

/** The two parts of a request the client address is read from (proxy-addr reads no more). */
function request(remoteAddress: string, forwardedFor?: string): IncomingMessage {
  return {
    socket: { remoteAddress },
    headers: forwardedFor === undefined ? {} : { 'x-forwarded-for': forwardedFor },
  } as unknown as IncomingMessage;
}

describe('makeClientAddress', () => {
  test('without trusted proxies: the socket address, X-Forwarded-For ignored', () => {
    const address = makeClientAddress([]);
    assert.equal(address(request('192.0.2.1', '10.1.2.3')), '192.0.2.1');
    assert.equal(address(request('::ffff:127.0.0.1')), '127.0.0.1');
    assert.equal(address(request('::1')), '::1');
  });

  test('from a trusted proxy: the nearest X-Forwarded-For entry it did not add', () => {
    const address = makeClientAddress(['loopback', '10.0.0.0/8']);
    assert.equal(address(request('127.0.0.1', '203.0.113.9')), '203.0.113.9');
    // Hops through trusted proxies are skipped; an entry left of an untrusted one is not believed.
    assert.equal(
      address(request('127.0.0.1', '198.51.100.1, 203.0.113.9, 10.0.0.5')),
      '203.0.113.9',
    );
    assert.equal(address(request('::ffff:127.0.0.1', '::ffff:203.0.113.9')), '203.0.113.9');
  });

  test('from a trusted proxy without X-Forwarded-For: the socket address', () => {
    assert.equal(makeClientAddress(['loopback'])(request('127.0.0.1')), '127.0.0.1');
  });

  test('from an untrusted peer: its own address, whatever it claims', () => {
    const address = makeClientAddress(['10.0.0.0/8']);
    assert.equal(address(request('192.0.2.1', '10.1.2.3')), '192.0.2.1');
  });
});
