import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { assertError } from '../helpers/assertions.ts';
import { describeWithDatabase, SQLITE } from '../helpers/each-database.ts';
import { call, type Reply, topicBody, userBody } from '../helpers/http.ts';
import { useTestServer } from '../helpers/test-server.ts';
import { chunk, LAST_CHUNK, rawExchange, requestHead } from './raw-exchange.ts';

const JSON_TYPE = 'application/json; charset=utf-8';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** The error envelope, and nothing else in it: {status, time, data, code}. */
function assertErrorEnvelope(reply: Reply, status: number, code: string): void {
  assertError(reply, status, code);
  assert.deepEqual(Object.keys(reply.body ?? {}), ['status', 'time', 'data', 'code']);
}

describeWithDatabase('the endpoint', SQLITE, (database) => {
  const server = useTestServer({ database });
  let key: string;
  before(() => {
    key = server.key;
  });

  test('the service answers at /upload/svc_wbs/ and at /upload/svc_wbs without the slash', async () => {
    for (const path of ['/upload/svc_wbs/', '/upload/svc_wbs']) {
      const reply = await call(`${server.origin}${path}`, {
        headers: { apikey: key },
        body: topicBody(1),
      });
      assert.equal(reply.status, 200, `${path}: ${reply.text}`);
      const data = reply.body?.data as { total: number; topic: { id: string } };
      assert.equal(data.topic.id, '1');
    }
  });

  test('any other path is a 404 with the error envelope, key or not', async () => {
    const paths = [
      '/',
      '/upload',
      '/upload/',
      '/upload/svc_wbs/x',
      '/upload/svc_wbs//',
      '/UPLOAD/SVC_WBS/',
      '/helpdesk/upload/svc_wbs/',
      '/healthz/extra',
      '/favicon.ico',
    ];
    for (const path of paths) {
      for (const method of ['GET', 'POST']) {
        const reply = await call(`${server.origin}${path}`, {
          method,
          headers: { apikey: key },
          body: topicBody(1),
        });
        assertErrorEnvelope(reply, 404, 'not_found');
        assert.match(String(reply.headers['x-request-id']), /./);
      }
    }
  });

  test('GET /healthz answers 200 without an API key', async () => {
    const reply = await call(`${server.origin}/healthz`);
    assert.equal(reply.status, 200, reply.text);
    assert.equal(reply.headers['content-type'], JSON_TYPE);
    assert.equal(reply.body?.status, 'Success');
    assert.equal(typeof reply.body?.time, 'number');
  });

  test('GET /readyz answers 200 without an API key while the database is reachable', async () => {
    const reply = await call(`${server.origin}/readyz`);
    assert.equal(reply.status, 200, reply.text);
    assert.equal(reply.headers['content-type'], JSON_TYPE);
    assert.equal(reply.body?.status, 'Success');
    assert.equal(typeof reply.body?.time, 'number');
  });

  test('every response but 204 is application/json; charset=utf-8 and carries X-Request-Id', async () => {
    const cases: {
      what: string;
      url: string;
      method?: string;
      headers?: Record<string, string>;
      body?: unknown;
    }[] = [
      { what: '200 topic', url: server.url, headers: { apikey: key }, body: topicBody(1) },
      {
        what: '200 user',
        url: server.url,
        method: 'POST',
        headers: { apikey: key },
        body: userBody(),
      },
      { what: '400 invalid_json', url: server.url, headers: { apikey: key }, body: '{' },
      {
        what: '400 invalid_parameters',
        url: server.url,
        headers: { apikey: key },
        body: topicBody('x'),
      },
      { what: '401 missing key', url: server.url, body: topicBody(1) },
      {
        what: '401 invalid key',
        url: server.url,
        headers: { apikey: 'A'.repeat(32) },
        body: topicBody(1),
      },
      { what: '404 path', url: `${server.origin}/nope` },
      {
        what: '405 method',
        url: server.url,
        method: 'POST',
        headers: { apikey: key },
        body: topicBody(1),
      },
      {
        what: '413 too large',
        url: server.url,
        headers: { apikey: key },
        body: `${JSON.stringify(topicBody(1))}${' '.repeat(17_000)}`,
      },
      {
        what: '415 multipart',
        url: server.url,
        headers: { apikey: key, 'Content-Type': 'multipart/form-data; boundary=x' },
        body: '--x--',
      },
      { what: '200 healthz', url: `${server.origin}/healthz` },
      { what: '200 readyz', url: `${server.origin}/readyz` },
    ];
    for (const c of cases) {
      const reply = await call(c.url, {
        method: c.method ?? 'GET',
        headers: c.headers ?? {},
        body: c.body,
      });
      assert.notEqual(reply.status, 204, c.what);
      assert.equal(reply.headers['content-type'], JSON_TYPE, c.what);
      assert.match(String(reply.headers['x-request-id']), UUID, c.what);
      assert.equal(typeof reply.body?.status, 'string', c.what);
      assert.equal(reply.status === 200, reply.body?.status === 'Success', c.what);
    }
  });

  test('a 204 has no body and no Content-Type, but carries X-Request-Id', async () => {
    const reply = await call(server.url, { headers: { apikey: key }, body: topicBody(999) });
    assert.equal(reply.status, 204);
    assert.equal(reply.text, '');
    assert.equal(reply.headers['content-type'], undefined);
    assert.match(String(reply.headers['x-request-id']), UUID);
  });

  test('a sane X-Request-Id is echoed, on success, 204 and error alike', async () => {
    const ids = [
      'abc-123',
      'req_42.retry:1',
      '0f8fad5b-d9cb-469f-a165-70867728950e',
      'x'.repeat(64),
    ];
    for (const id of ids) {
      for (const [body, status] of [
        [topicBody(1), 200],
        [topicBody(999), 204],
        [topicBody('x'), 400],
      ] as const) {
        const reply = await call(server.url, {
          headers: { apikey: key, 'X-Request-Id': id },
          body,
        });
        assert.equal(reply.status, status);
        assert.equal(reply.headers['x-request-id'], id);
      }
    }
    const notFound = await call(`${server.origin}/nope`, {
      headers: { 'x-request-id': 'abc-404' },
    });
    assert.equal(notFound.headers['x-request-id'], 'abc-404');
  });

  test('an insane X-Request-Id is replaced by a new one', async () => {
    const insane = ['has spaces in it', 'x'.repeat(300), 'quote"d', '<script>', 'semi;colon', 'é'];
    for (const id of insane) {
      const reply = await call(server.url, {
        headers: { apikey: key, 'X-Request-Id': id },
        body: topicBody(1),
      });
      assert.equal(reply.status, 200);
      const sent = reply.headers['x-request-id'];
      assert.notEqual(sent, id);
      assert.match(String(sent), UUID, `replacement for ${JSON.stringify(id)}`);
    }
  });

  test('without an X-Request-Id every response gets a new one', async () => {
    const seen = new Set<string>();
    for (let i = 0; i < 5; i++) {
      const reply = await call(server.url, { headers: { apikey: key }, body: topicBody(1) });
      const id = String(reply.headers['x-request-id']);
      assert.match(id, UUID);
      seen.add(id);
    }
    assert.equal(seen.size, 5);
  });

  test('a request that is not valid HTTP/1.1 gets a 400 envelope with X-Request-Id', async () => {
    const heads = [
      requestHead('GET', '/upload/svc_wbs/', { apikey: key, 'Content-Length': 'abc' }),
      requestHead('GET', '/upload/svc_wbs/', {
        apikey: key,
        'Content-Length': 5,
        'Transfer-Encoding': 'chunked',
      }),
      requestHead('GET', '/upload/svc_wbs/', { apikey: key, 'X-Padding': 'x'.repeat(20_000) }),
      'NOT AN HTTP REQUEST\r\n\r\n',
    ];
    for (const head of heads) {
      const reply = await rawExchange({ port: server.port, parts: [head] });
      assert.equal(reply.status, 400, head.slice(0, 80));
      assert.equal(reply.headers['content-type'], JSON_TYPE);
      assert.match(String(reply.headers['x-request-id']), UUID);
      const body = JSON.parse(reply.text) as Record<string, unknown>;
      assert.equal(body.status, 'Error');
      assert.equal(body.code, 'invalid_request');
      assert.equal(typeof body.time, 'number');
    }
  });

  test('the success envelope is exactly {status, time, data}', async () => {
    const reply = await call(server.url, { headers: { apikey: key }, body: topicBody(1) });
    assert.equal(reply.status, 200);
    assert.deepEqual(Object.keys(reply.body ?? {}), ['status', 'time', 'data']);
    assert.equal(reply.body?.status, 'Success');
    const added = await call(server.url, {
      method: 'POST',
      headers: { apikey: key },
      body: userBody(),
    });
    assert.equal(added.status, 200, added.text);
    assert.deepEqual(Object.keys(added.body ?? {}), ['status', 'time', 'data']);
    assert.match(String(added.body?.data), /^[1-9][0-9]*$/);
  });

  test('the error envelope is exactly {status, time, data, code}', async () => {
    assertErrorEnvelope(await call(server.url, { body: topicBody(1) }), 401, 'missing_api_key');
    assertErrorEnvelope(
      await call(server.url, { headers: { apikey: key }, body: '[]' }),
      400,
      'invalid_json',
    );
    assertErrorEnvelope(
      await call(server.url, { headers: { apikey: key }, body: { query: 'a', condition: 'b' } }),
      400,
      'unknown_operation',
    );
  });

  test('time is the processing time in seconds, a number within the round trip', async () => {
    let subMillisecond = false;
    for (let i = 0; i < 5; i++) {
      const startedAt = performance.now();
      const reply = await call(server.url, { headers: { apikey: key }, body: topicBody(1) });
      const roundTripSeconds = (performance.now() - startedAt) / 1000;
      const time = reply.body?.time;
      assert.equal(typeof time, 'number');
      assert.ok(Number.isFinite(time));
      assert.ok((time as number) > 0, `time ${time} must be positive`);
      // In milliseconds it would exceed the whole round trip measured in seconds.
      assert.ok(
        (time as number) <= roundTripSeconds,
        `time ${time} > round trip ${roundTripSeconds} s`,
      );
      if (!Number.isInteger((time as number) * 1000)) subMillisecond = true;
    }
    assert.ok(subMillisecond, 'time has sub-millisecond precision');
  });

  test('time counts the whole request, body reading included, in seconds', async () => {
    const body = JSON.stringify(topicBody(1));
    const startedAt = performance.now();
    const reply = await rawExchange({
      port: server.port,
      parts: [
        requestHead('GET', '/upload/svc_wbs/', { apikey: key, 'Transfer-Encoding': 'chunked' }) +
          chunk(body.slice(0, 10)).toString(),
        chunk(body.slice(10)).toString() + LAST_CHUNK,
      ],
      pauseMs: 300,
    });
    const roundTripSeconds = (performance.now() - startedAt) / 1000;
    assert.equal(reply.status, 200, reply.text);
    const time = (JSON.parse(reply.text) as { time: number }).time;
    assert.ok(time >= 0.25, `time ${time} should include the 0.3 s pause inside the body`);
    assert.ok(time <= roundTripSeconds, `time ${time} > round trip ${roundTripSeconds} s`);
  });
});

describeWithDatabase('DESKGATE_BASE_PATH', SQLITE, (database) => {
  const server = useTestServer({ database, env: { DESKGATE_BASE_PATH: '/helpdesk' } });
  let key: string;
  before(() => {
    key = server.key;
  });

  test('the service answers under the prefix, with and without the trailing slash', async () => {
    for (const path of ['/helpdesk/upload/svc_wbs/', '/helpdesk/upload/svc_wbs']) {
      const reply = await call(`${server.origin}${path}`, {
        headers: { apikey: key },
        body: topicBody(1),
      });
      assert.equal(reply.status, 200, `${path}: ${reply.text}`);
    }
  });

  test('the root paths are not served any more', async () => {
    for (const path of [
      '/upload/svc_wbs/',
      '/upload/svc_wbs',
      '/healthz',
      '/readyz',
      '/helpdesk',
    ]) {
      const reply = await call(`${server.origin}${path}`, {
        headers: { apikey: key },
        body: topicBody(1),
      });
      assertErrorEnvelope(reply, 404, 'not_found');
    }
  });

  test('the service paths move under the prefix too', async () => {
    for (const path of ['/helpdesk/healthz', '/helpdesk/readyz']) {
      const reply = await call(`${server.origin}${path}`);
      assert.equal(reply.status, 200, `${path}: ${reply.text}`);
    }
  });
});
