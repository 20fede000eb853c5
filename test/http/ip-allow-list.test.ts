import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { assertError } from '../helpers/assertions.ts';
import { DATABASES, type TestDatabase } from '../helpers/databases.ts';
import { call, type Reply, topicBody } from '../helpers/http.ts';
import { ROOT } from '../helpers/paths.ts';
import { createKey, type StartedServer, startServer } from '../helpers/server.ts';

function assertError(reply: Reply, status: number, code: string): void {
  assert.equal(reply.status, status, reply.text);
  assert.equal(reply.body?.status, 'Error');
  assert.equal(reply.body?.code, code);
}

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

for (const kind of DATABASES) {
  describe(`IP allow-lists (IPv4) on ${kind.name}`, () => {
    let database: TestDatabase;
    let server: StartedServer;
    const keys: Record<string, string> = {};

    before(async () => {
      database = await kind.create();
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
        keys[name] = (await createKey(database.url, { name, allowIps })).key;
      }
      server = await startServer({ databaseUrl: database.url });
    });
    after(async () => {
      await server.stop();
      await database.drop();
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

  describe(`DESKGATE_TRUST_PROXY=loopback on ${kind.name}`, () => {
    let database: TestDatabase;
    let server: StartedServer;
    let tenKey: string;
    let localKey: string;

    before(async () => {
      database = await kind.create();
      ({ key: tenKey } = await createKey(database.url, { allowIps: ['10.0.0.0/8'] }));
      ({ key: localKey } = await createKey(database.url, { allowIps: ['127.0.0.1'] }));
      server = await startServer({
        databaseUrl: database.url,
        env: { DESKGATE_TRUST_PROXY: 'loopback' },
      });
    });
    after(async () => {
      await server.stop();
      await database.drop();
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

  describe(`IP allow-lists (IPv6) on ${kind.name}`, {
    skip: ipv6Available ? false : 'skipped: this machine cannot listen on ::1 (IPv6 loopback off)',
  }, () => {
    let database: TestDatabase;
    let server: StartedServer;
    let url: string;
    const keys: Record<string, string> = {};

    before(async () => {
      database = await kind.create();
      const lists: Record<string, string[]> = {
        loopback: ['::1/128'],
        address: ['::1'],
        documentation: ['2001:db8::/32'],
        ipv4Loopback: ['127.0.0.1'],
        mixed: ['10.0.0.0/8', '::1'],
      };
      for (const [name, allowIps] of Object.entries(lists)) {
        keys[name] = (await createKey(database.url, { name, allowIps })).key;
      }
      server = await startServer({ databaseUrl: database.url, env: { HOST: '::1' } });
      url = `http://[::1]:${server.port}/upload/svc_wbs/`;
    });
    after(async () => {
      await server.stop();
      await database.drop();
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
  });

  describe(`IPv4 clients of a dual-stack server on ${kind.name}`, {
    skip: dualStackAvailable ? false : 'skipped: this machine cannot listen on :: (IPv6 off)',
  }, () => {
    let database: TestDatabase;
    let server: StartedServer;
    let localKey: string;
    let mappedKey: string;

    before(async () => {
      database = await kind.create();
      ({ key: localKey } = await createKey(database.url, { allowIps: ['127.0.0.0/8'] }));
      ({ key: mappedKey } = await createKey(database.url, { allowIps: ['2001:db8::/32'] }));
      server = await startServer({ databaseUrl: database.url, env: { HOST: '::' } });
    });
    after(async () => {
      await server.stop();
      await database.drop();
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
  });
}

/** Runs `deskgate serve` with `env`; kills it if it is still running after `ms` (it should not start). */
function serveExpectingRefusal(
  env: Record<string, string>,
  ms = 15_000,
): Promise<{ code: number | null; stderr: string; killed: boolean }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['bin/deskgate.js', 'serve'], {
      cwd: ROOT,
      env: { PATH: process.env.PATH, HOME: process.env.HOME, DESKGATE_LOG_FORMAT: 'json', ...env },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    let killed = false;
    child.stderr.on('data', (c: Buffer) => {
      stderr += c.toString();
    });
    const timer = setTimeout(() => {
      killed = true;
      child.kill('SIGKILL');
    }, ms);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stderr, killed });
    });
  });
}

describe('a bad DESKGATE_TRUST_PROXY', () => {
  test('stops the start with one line naming the variable, exit status 2', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'deskgate-test-'));
    try {
      for (const value of ['nonsense', 'loopback, 300.1.1.1', '10.0.0.0/99']) {
        const result = await serveExpectingRefusal({
          HOST: '127.0.0.1',
          PORT: '0',
          DESKGATE_DATABASE_URL: `sqlite:${join(dir, 'deskgate.db')}`,
          DESKGATE_TRUST_PROXY: value,
        });
        assert.equal(result.killed, false, `the server started with DESKGATE_TRUST_PROXY=${value}`);
        assert.equal(result.code, 2, result.stderr);
        const lines = result.stderr.trim().split('\n');
        assert.equal(lines.length, 1, result.stderr);
        assert.match(String(lines[0]), /DESKGATE_TRUST_PROXY/);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
