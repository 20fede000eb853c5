import assert from 'node:assert/strict';
import { test } from 'node:test';
import { describeWithDatabase, SQLITE } from '../helpers/each-database.ts';
import { call } from '../helpers/http.ts';
import { type TestServer, useTestServer } from '../helpers/test-server.ts';
import { rawExchange, requestHead } from './raw-exchange.ts';

const TOPIC = { query: 'topics', condition: 'specific', parameters: { id: 1 } };

async function status(server: TestServer, path: string): Promise<number> {
  const reply = await call(`${server.origin}${path}`, {
    headers: { apikey: server.key },
    body: TOPIC,
  });
  if (reply.status === 200)
    assert.equal(reply.body?.data && 'total' in Object(reply.body.data), true);
  return reply.status;
}

describeWithDatabase('the service paths', SQLITE, (database) => {
  const plain = useTestServer(() => ({ database }));
  const both = useTestServer(() => ({
    database,
    env: { DESKGATE_PATHS: '/upload/svc_wbs/,/ost_wbs', DESKGATE_BASE_PATH: '/helpdesk' },
  }));
  const only = useTestServer(() => ({ database, env: { DESKGATE_PATHS: '/ost_wbs/' } }));

  test('by default /upload/svc_wbs, with or without the slash; /ost_wbs/ is not served', async () => {
    assert.equal(await status(plain, '/upload/svc_wbs/'), 200);
    assert.equal(await status(plain, '/upload/svc_wbs'), 200);
    assert.equal(await status(plain, '/upload/svc_wbs/?x=1'), 200);
    const missing = await call(`${plain.origin}/ost_wbs/`, { body: TOPIC });
    assert.equal(missing.status, 404);
    assert.match(String(missing.body?.data), /the service address is \/upload\/svc_wbs\//);
  });

  test('every listed path, both forms, below DESKGATE_BASE_PATH', async () => {
    for (const path of ['/upload/svc_wbs/', '/upload/svc_wbs', '/ost_wbs/', '/ost_wbs']) {
      assert.equal(await status(both, `/helpdesk${path}`), 200, path);
      assert.equal(await status(both, path), 404, path);
    }
    const missing = await call(`${both.origin}/helpdesk/elsewhere`, { body: TOPIC });
    assert.match(
      String(missing.body?.data),
      /the service address is \/helpdesk\/upload\/svc_wbs\/ or \/helpdesk\/ost_wbs\//,
    );
  });

  test('a list without /upload/svc_wbs/ no longer serves it, and the document names its first path', async () => {
    assert.equal(await status(only, '/ost_wbs/'), 200);
    assert.equal(await status(only, '/ost_wbs'), 200);
    assert.equal(await status(only, '/upload/svc_wbs/'), 404);
    const document = await call(`${only.origin}/openapi.json`);
    const paths = Object.keys((document.body as unknown as { paths: object }).paths);
    assert.ok(paths.includes('/ost_wbs/'), paths.join(' '));
    assert.ok(!paths.includes('/upload/svc_wbs/'));
  });

  test('a request line in absolute form reaches the same address (HTTP/1.1 servers must accept it)', async () => {
    const body = JSON.stringify(TOPIC);
    const service = await rawExchange({
      port: plain.port,
      parts: [
        requestHead('GET', `http://127.0.0.1:${plain.port}/upload/svc_wbs/?x=1`, {
          apikey: plain.key,
          'Content-Length': body.length,
        }) + body,
      ],
    });
    assert.equal(service.status, 200, service.text);
    const health = await rawExchange({
      port: both.port,
      parts: [requestHead('GET', 'HTTP://example.test/helpdesk/healthz', {})],
    });
    assert.equal(health.status, 200, health.text);
    const elsewhere = await rawExchange({
      port: plain.port,
      parts: [requestHead('GET', 'http://127.0.0.1/elsewhere/upload/svc_wbs/', {})],
    });
    assert.equal(elsewhere.status, 404);
  });
});
