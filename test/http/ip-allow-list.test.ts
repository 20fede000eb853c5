import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import { before, test } from 'node:test';
import { assertError } from '../helpers/assertions.ts';
import { describeEachDatabase, describeWithDatabase, SQLITE } from '../helpers/each-database.ts';
import { call, type Reply, topicBody } from '../helpers/http.ts';
import { useTestServer } from '../helpers/test-server.ts';

/** True when this machine can listen on `host` (IPv6 may be switched off, e.g. in containers). */
function canListenOn(host: string): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once('error', () => resolve(false));
    probe.listen(0, host, () => probe.close(() => resolve(true)));
  });
}

const ipv6Available = await canListenOn('::1');
const dualStackAvailable = await canListenOn('::');

describeEachDatabase('IP allow-lists (IPv4)', (database) => {
  const server = useTestServer({ database });
  const keys: Record<string, string> = {};
  before(async () => {
    const lists: Record<string, string[]> = {
      address: ['127.0.0.1'],
      range: ['127.0.0.0/8'],
      elsewhere: ['10.0.0.0/8'],
      several: ['10.0.0.0/8', '192.0.2.1', '127.0.0.1/32'],
      otherLoopback: ['127.0.0.2'],
      ipv6Only: ['::1/128'],
      none: [],
    };
    for (const [name, allowIps] of Object.entries(lists)) {
      keys[name] = (await server.createKey({ name, allowIps })).key;
    }
  });

  function lookup(name: string, headers: Record<string, string> = {}): Promise<Reply> {
    return call(server.url, {
      headers: { apikey: String(keys[name]), ...headers },
      body: topicBody(1),
    });
  }

  test('a key allowing 127.0.0.1, 127.0.0.0/8, a list holding it, or anything works', async () => {
    for (const name of ['address', 'range', 'several', 'none']) {
      const reply = await lookup(name);
      assert.equal(reply.status, 200, `${name}: ${reply.text}`);
    }
  });

  test('a key allowing only other addresses → 403 ip_not_allowed', async () => {
    for (const name of ['elsewhere', 'otherLoopback', 'ipv6Only']) {
      assertError(await lookup(name), 403, 'ip_not_allowed');
    }
  });

  test('without DESKGATE_TRUST_PROXY, X-Forwarded-For is ignored', async () => {
    assertError(
      await lookup('elsewhere', { 'X-Forwarded-For': '10.1.2.3' }),
      403,
      'ip_not_allowed',
    );
    const reply = await lookup('address', { 'X-Forwarded-For': '203.0.113.9' });
    assert.equal(reply.status, 200, reply.text);
  });
});

describeWithDatabase('DESKGATE_TRUST_PROXY=loopback', SQLITE, (database) => {
  const server = useTestServer({
    database,
    env: { DESKGATE_TRUST_PROXY: 'loopback' },
  });
  let tenKey: string;
  let localKey: string;
  before(async () => {
    ({ key: tenKey } = await server.createKey({ allowIps: ['10.0.0.0/8'] }));
    ({ key: localKey } = await server.createKey({ allowIps: ['127.0.0.1'] }));
  });

  function lookup(key: string, forwardedFor?: string): Promise<Reply> {
    return call(server.url, {
      headers: { apikey: key, ...(forwardedFor ? { 'X-Forwarded-For': forwardedFor } : {}) },
      body: topicBody(1),
    });
  }

  test('the X-Forwarded-For address of a trusted proxy counts for the allow-list', async () => {
    const allowed = await lookup(tenKey, '10.1.2.3');
    assert.equal(allowed.status, 200, allowed.text);
    assertError(await lookup(localKey, '203.0.113.9'), 403, 'ip_not_allowed');
  });

  test('without X-Forwarded-For the socket address counts', async () => {
    assertError(await lookup(tenKey), 403, 'ip_not_allowed');
    const reply = await lookup(localKey);
    assert.equal(reply.status, 200, reply.text);
  });

  test('the nearest untrusted hop counts, not a leftmost entry the client wrote itself', async () => {
    // A client at 203.0.113.9 claims 10.1.2.3; only the hop our proxy added is believed.
    assertError(await lookup(tenKey, '10.1.2.3, 203.0.113.9'), 403, 'ip_not_allowed');
    // Hops through trusted (loopback) proxies are skipped.
    const reply = await lookup(tenKey, '10.1.2.3, 127.0.0.1');
    assert.equal(reply.status, 200, reply.text);
  });
});

describeWithDatabase(
  'IP allow-lists (IPv6)',
  SQLITE,
  (database) => {
    const server = useTestServer({ database, env: { HOST: '::1' } });
    let url: string;
    const keys: Record<string, string> = {};
    before(async () => {
      const lists: Record<string, string[]> = {
        loopback: ['::1/128'],
        address: ['::1'],
        documentation: ['2001:db8::/32'],
        ipv4Loopback: ['127.0.0.1'],
        mixed: ['10.0.0.0/8', '::1'],
      };
      for (const [name, allowIps] of Object.entries(lists)) {
        keys[name] = (await server.createKey({ name, allowIps })).key;
      }
      url = `http://[::1]:${server.port}/upload/svc_wbs/`;
    });

    function lookup(name: string): Promise<Reply> {
      return call(url, { headers: { apikey: String(keys[name]) }, body: topicBody(1) });
    }

    test('a key allowing ::1/128, ::1 or a list holding it works over IPv6', async () => {
      for (const name of ['loopback', 'address', 'mixed']) {
        const reply = await lookup(name);
        assert.equal(reply.status, 200, `${name}: ${reply.text}`);
      }
    });

    test('a key allowing 2001:db8::/32 or only IPv4 → 403 ip_not_allowed', async () => {
      for (const name of ['documentation', 'ipv4Loopback']) {
        assertError(await lookup(name), 403, 'ip_not_allowed');
      }
    });
  },
  {
    skip: ipv6Available ? false : 'skipped: this machine cannot listen on ::1 (IPv6 loopback off)',
  },
);

describeWithDatabase(
  'IPv4 clients of a dual-stack server',
  SQLITE,
  (database) => {
    const server = useTestServer({ database, env: { HOST: '::' } });
    let localKey: string;
    let mappedKey: string;
    before(async () => {
      ({ key: localKey } = await server.createKey({ allowIps: ['127.0.0.0/8'] }));
      ({ key: mappedKey } = await server.createKey({ allowIps: ['2001:db8::/32'] }));
    });

    test('an IPv4-mapped socket address (::ffff:127.0.0.1) matches an IPv4 allow-list', async () => {
      const reply = await call(server.url, { headers: { apikey: localKey }, body: topicBody(1) });
      assert.equal(reply.status, 200, reply.text);
      assertError(
        await call(server.url, { headers: { apikey: mappedKey }, body: topicBody(1) }),
        403,
        'ip_not_allowed',
      );
    });
  },
  {
    skip: dualStackAvailable ? false : 'skipped: this machine cannot listen on :: (IPv6 off)',
  },
);
