import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ConfigError, loadConfig } from '../../src/config.ts';
import { CORS_ALLOW_HEADERS, CORS_EXPOSE_HEADERS } from '../../src/http/cors.ts';
import { describeWithDatabase, SQLITE } from '../helpers/each-database.ts';
import { call, topicBody } from '../helpers/http.ts';
import { useTestServer } from '../helpers/test-server.ts';

const PORTAL = 'https://portal.example';
const OTHER = 'https://other.example';

describeWithDatabase('browser portals: X-HTTP-Method-Override and CORS', SQLITE, (database) => {
  const plain = useTestServer({ database });
  const portal = useTestServer({
    database,
    env: { DESKGATE_CORS_ORIGINS: `${PORTAL}, http://localhost:3000` },
  });

  test('a POST with X-HTTP-Method-Override: GET is the look-up it names', async () => {
    const reply = await plain.request(topicBody(1), {
      method: 'POST',
      headers: { 'X-HTTP-Method-Override': 'get' },
    });
    assert.equal(reply.status, 200, reply.text);
    assert.equal((reply.body?.data as { topic?: { id?: string } } | undefined)?.topic?.id, '1');
  });

  test('a plain POST to a look-up stays 405 with Allow: GET (SPEC §5)', async () => {
    const reply = await plain.request(topicBody(1), { method: 'POST' });
    assert.equal(reply.status, 405);
    assert.equal(reply.body?.code, 'method_not_allowed');
    assert.equal(reply.headers.allow, 'GET');
  });

  test('only GET may be named, and only on a POST', async () => {
    for (const [method, override] of [
      ['POST', 'PUT'],
      ['POST', 'DELETE'],
      ['GET', 'GET'],
      ['PUT', 'GET'],
    ] as const) {
      const reply = await plain.request(topicBody(1), {
        method,
        headers: { 'X-HTTP-Method-Override': override },
      });
      assert.equal(reply.status, 400, `${method} + ${override}`);
      assert.equal(reply.body?.code, 'invalid_request');
    }
    // user/add is POST or PUT: a POST named GET is a GET there, so 405.
    const add = await plain.request(
      { query: 'user', condition: 'add', parameters: {} },
      { method: 'POST', headers: { 'X-HTTP-Method-Override': 'GET' } },
    );
    assert.equal(add.status, 405);
  });

  test('CORS is off by default: no CORS header, whatever the Origin', async () => {
    const reply = await plain.request(topicBody(1), { headers: { Origin: PORTAL } });
    assert.equal(reply.status, 200);
    for (const name of Object.keys(reply.headers))
      assert.ok(!name.startsWith('access-control-'), name);
    assert.equal(reply.headers.vary, undefined);
  });

  test('a preflight from a listed origin: 204 with methods, headers and max-age', async () => {
    const reply = await call(portal.url, {
      method: 'OPTIONS',
      headers: {
        Origin: PORTAL,
        'Access-Control-Request-Method': 'POST',
        'Access-Control-Request-Headers': 'apikey, content-type, x-http-method-override',
      },
    });
    assert.equal(reply.status, 204);
    assert.equal(reply.text, '');
    assert.equal(reply.headers['access-control-allow-origin'], PORTAL);
    assert.match(String(reply.headers['access-control-allow-methods']), /POST/);
    assert.equal(reply.headers['access-control-allow-headers'], CORS_ALLOW_HEADERS);
    assert.equal(reply.headers['access-control-max-age'], '600');
    assert.match(String(reply.headers.vary), /Origin/);
    assert.ok(reply.headers['x-request-id']);
  });

  test('a preflight from another origin gets no CORS header', async () => {
    const reply = await call(portal.url, {
      method: 'OPTIONS',
      headers: { Origin: OTHER, 'Access-Control-Request-Method': 'POST' },
    });
    assert.equal(reply.status, 204);
    assert.equal(reply.headers['access-control-allow-origin'], undefined);
    assert.equal(reply.headers['access-control-allow-headers'], undefined);
  });

  test('answers to a listed origin name it and expose the headers a script needs', async () => {
    const ok = await portal.request(topicBody(1), {
      method: 'POST',
      headers: { Origin: PORTAL, 'X-HTTP-Method-Override': 'GET' },
    });
    assert.equal(ok.status, 200, ok.text);
    assert.equal(ok.headers['access-control-allow-origin'], PORTAL);
    assert.equal(ok.headers['access-control-expose-headers'], CORS_EXPOSE_HEADERS);
    assert.match(String(ok.headers.vary), /Origin/);
    // Errors too: the script reads X-Error-Code and the envelope.
    const refused = await portal.request(topicBody(1), {
      key: 'not-a-key',
      headers: { Origin: 'http://localhost:3000' },
    });
    assert.equal(refused.status, 401);
    assert.equal(refused.headers['access-control-allow-origin'], 'http://localhost:3000');
  });

  test('answers to another origin carry no CORS header', async () => {
    for (const origin of [OTHER, `${PORTAL}:8443`, 'null', PORTAL.toUpperCase()]) {
      const reply = await portal.request(topicBody(1), { headers: { Origin: origin } });
      assert.equal(reply.status, 200);
      assert.equal(reply.headers['access-control-allow-origin'], undefined, origin);
      assert.equal(reply.headers['access-control-expose-headers'], undefined, origin);
      assert.match(String(reply.headers.vary), /Origin/);
    }
  });
});

test('DESKGATE_CORS_ORIGINS takes exact origins only: no *, no path', () => {
  for (const value of [
    '*',
    'https://portal.example/',
    'portal.example',
    'https://a.example/app',
    'ftp://a.example',
  ])
    assert.throws(() => loadConfig({ DESKGATE_CORS_ORIGINS: value }), ConfigError, value);
  assert.deepEqual(
    loadConfig({ DESKGATE_CORS_ORIGINS: 'https://a.example, http://localhost:3000' }).corsOrigins,
    ['https://a.example', 'http://localhost:3000'],
  );
});
