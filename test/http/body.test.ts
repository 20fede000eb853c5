import assert from 'node:assert/strict';
import { Agent, request } from 'node:http';
import { connect } from 'node:net';
import { before, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { assertError } from '../helpers/assertions.ts';
import { describeWithDatabase, SQLITE } from '../helpers/each-database.ts';
import { call, type Reply, topicBody, userBody } from '../helpers/http.ts';
import { useTestServer } from '../helpers/test-server.ts';
import { chunk, exchangeTwo, LAST_CHUNK, rawExchange, requestHead } from './raw-exchange.ts';

const DEFAULT_LIMIT = 16 * 1024;

// Node's client frames a GET body only when Transfer-Encoding is asked for explicitly; the
// `chunked` option of call() alone sends a GET body with no framing at all.
const CHUNKED = { 'Transfer-Encoding': 'chunked' };

/** A topics/specific body of exactly `bytes` bytes (JSON allows trailing whitespace). */
function topicBodyOfSize(bytes: number, id = 1): string {
  const json = JSON.stringify(topicBody(id));
  assert.ok(bytes >= json.length);
  return json + ' '.repeat(bytes - json.length);
}

/** The first log line of `server` that `matches`, waiting for it to be written. */
async function waitForLine(
  server: { output: readonly string[] },
  matches: (line: string) => boolean,
): Promise<string> {
  for (let i = 0; i < 100; i++) {
    const line = server.output.find(matches);
    if (line) return line;
    await sleep(50);
  }
  throw new Error(`no such log line in:\n${server.output.join('\n')}`);
}

function topicId(reply: Reply): string | undefined {
  return (reply.body?.data as { topic?: { id?: string } } | undefined)?.topic?.id;
}

describeWithDatabase('request bodies', SQLITE, (database) => {
  const server = useTestServer({ database });
  let key: string;
  before(async () => {
    key = server.key;
  });

  test('a GET body with Content-Length is read', async () => {
    for (const id of [1, 2, 11]) {
      const reply = await call(server.url, { headers: { apikey: key }, body: topicBody(id) });
      assert.equal(reply.status, 200, reply.text);
      assert.equal(topicId(reply), String(id));
    }
  });

  test('a chunked GET body is read', async () => {
    for (const id of [1, 2, 11]) {
      const reply = await call(server.url, {
        headers: { apikey: key, ...CHUNKED },
        body: topicBody(id),
        chunked: true,
      });
      assert.equal(reply.status, 200, reply.text);
      assert.equal(topicId(reply), String(id));
    }
  });

  test('a chunked GET body in one-byte chunks, sent as raw bytes, is read', async () => {
    const json = JSON.stringify(topicBody(11));
    const reply = await rawExchange({
      port: server.port,
      parts: [
        requestHead('GET', '/upload/svc_wbs/', { apikey: key, 'Transfer-Encoding': 'chunked' }),
        Buffer.concat([...json].map((c) => chunk(c))),
        LAST_CHUNK,
      ],
      pauseMs: 20,
    });
    assert.equal(reply.status, 200, reply.text);
    assert.equal(
      (JSON.parse(reply.text) as { data: { topic: { id: string } } }).data.topic.id,
      '11',
    );
  });

  test('a chunked POST body creates a user', async () => {
    const reply = await call(server.url, {
      method: 'POST',
      headers: { apikey: key, ...CHUNKED },
      body: userBody(),
      chunked: true,
    });
    assert.equal(reply.status, 200, reply.text);
    assert.match(String(reply.body?.data), /^[1-9][0-9]*$/);
  });

  test('the body is read as JSON whatever the Content-Type says', async () => {
    const types = [
      undefined,
      'application/x-www-form-urlencoded',
      'text/plain',
      'text/plain; charset=utf-8',
      'application/json',
      'application/octet-stream',
    ];
    for (const type of types) {
      const headers: Record<string, string> = { apikey: key };
      if (type) headers['Content-Type'] = type;
      const topic = await call(server.url, { headers, body: topicBody(2) });
      assert.equal(topic.status, 200, `${type}: ${topic.text}`);
      assert.equal(topicId(topic), '2');
      const user = await call(server.url, { method: 'POST', headers, body: userBody() });
      assert.equal(user.status, 200, `${type}: ${user.text}`);
    }
  });

  test('a form-encoded body is not JSON → 400 invalid_json', async () => {
    const reply = await call(server.url, {
      headers: { apikey: key, 'Content-Type': 'application/x-www-form-urlencoded' },
      body: 'query=topics&condition=specific&parameters[id]=1',
    });
    assertError(reply, 400, 'invalid_json');
  });

  test('multipart/form-data → 415 unsupported_media_type, even around valid JSON', async () => {
    for (const type of [
      'multipart/form-data; boundary=XyZ',
      'Multipart/Form-Data; boundary=XyZ',
      'multipart/form-data',
    ]) {
      const reply = await call(server.url, {
        headers: { apikey: key, 'Content-Type': type },
        body: JSON.stringify(topicBody(1)),
      });
      assertError(reply, 415, 'unsupported_media_type');
    }
  });

  test('a body of exactly the default limit (16 KiB) is accepted, Content-Length or chunked', async () => {
    const body = topicBodyOfSize(DEFAULT_LIMIT);
    assert.equal(Buffer.byteLength(body), DEFAULT_LIMIT);
    const plain = await call(server.url, { headers: { apikey: key }, body });
    assert.equal(plain.status, 200, plain.text);
    const chunked = await call(server.url, {
      headers: { apikey: key, ...CHUNKED },
      body,
      chunked: true,
    });
    assert.equal(chunked.status, 200, chunked.text);
  });

  test('one byte over the limit with Content-Length → 413 payload_too_large', async () => {
    const reply = await call(server.url, {
      headers: { apikey: key },
      body: topicBodyOfSize(DEFAULT_LIMIT + 1),
    });
    assertError(reply, 413, 'payload_too_large');
  });

  test('the limit counts bytes, not characters', async () => {
    const json = JSON.stringify({ ...topicBody(1), note: '' });
    const characters = DEFAULT_LIMIT - json.length;
    // Two bytes per "é": under the limit in characters, over it in bytes.
    const body = json.replace('"note":""', `"note":"${'é'.repeat(characters)}"`);
    assert.ok(body.length <= DEFAULT_LIMIT && Buffer.byteLength(body) > DEFAULT_LIMIT);
    const reply = await call(server.url, { headers: { apikey: key }, body });
    assertError(reply, 413, 'payload_too_large');
  });

  test('a declared Content-Length over the limit → 413 at once, without waiting for the body', async () => {
    const reply = await rawExchange({
      port: server.port,
      parts: [requestHead('GET', '/upload/svc_wbs/', { apikey: key, 'Content-Length': 1_000_000 })],
    });
    assertError(reply, 413, 'payload_too_large');
  });

  test("an 8 MiB body from Node's own HTTP client gets the 413, not a reset", async () => {
    // Written in parts, as a client on a slow link does: the answer comes while it still sends.
    const part = Buffer.alloc(256 * 1024, 0x20);
    const parts = 32;
    for (const agent of [false, new Agent({ keepAlive: true })]) {
      const reply = await new Promise<{ status: number; text: string }>((resolve, reject) => {
        const req = request(
          server.url,
          {
            method: 'POST',
            agent,
            headers: { apikey: key, 'Content-Length': part.length * parts },
          },
          (res) => {
            let text = '';
            res.setEncoding('utf8');
            res.on('data', (piece: string) => {
              text += piece;
            });
            res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
          },
        );
        req.on('error', reject);
        (async () => {
          for (let i = 1; i < parts; i++) {
            req.write(part);
            await sleep(5);
          }
          req.end(part);
        })().catch(reject);
      });
      assert.equal(reply.status, 413, reply.text);
      assert.match(reply.text, /payload_too_large/);
    }
  });

  test('after a 413 the connection serves the next request; a body over the discard bound closes it', async () => {
    const over = topicBodyOfSize(DEFAULT_LIMIT + 1);
    const [first, second] = await exchangeTwo(
      server.port,
      requestHead('GET', '/upload/svc_wbs/', { apikey: key, 'Content-Length': over.length }) +
        over +
        requestHead('GET', '/upload/svc_wbs/', {
          apikey: key,
          'Content-Length': JSON.stringify(topicBody(1)).length,
        }) +
        JSON.stringify(topicBody(1)),
    );
    assert.equal(first.status, 413);
    assert.notEqual(first.headers.connection, 'close');
    assert.equal(second.status, 200, second.text);
    const huge = await rawExchange({
      port: server.port,
      parts: [
        requestHead('GET', '/upload/svc_wbs/', { apikey: key, 'Content-Length': 17 * 1024 * 1024 }),
      ],
    });
    assertError(huge, 413, 'payload_too_large');
    assert.equal(huge.headers.connection, 'close');
  });

  test('a chunked body growing over the limit → 413 before it ends', async () => {
    const reply = await rawExchange({
      port: server.port,
      parts: [
        requestHead('GET', '/upload/svc_wbs/', { apikey: key, 'Transfer-Encoding': 'chunked' }),
        chunk(' '.repeat(6000)),
        chunk(' '.repeat(6000)),
        chunk(' '.repeat(6000)),
        // The last chunk never comes: the server must answer on the byte count alone.
      ],
      pauseMs: 10,
    });
    assertError(reply, 413, 'payload_too_large');
  });

  test('a chunked body over the limit, sent whole, → 413', async () => {
    const body = topicBodyOfSize(DEFAULT_LIMIT + 1);
    const reply = await rawExchange({
      port: server.port,
      parts: [
        requestHead('GET', '/upload/svc_wbs/', { apikey: key, 'Transfer-Encoding': 'chunked' }) +
          chunk(body).toString() +
          LAST_CHUNK,
      ],
    });
    assertError(reply, 413, 'payload_too_large');
  });

  test('a client that hangs up mid-body is not logged as a server error', async () => {
    const requestId = `hang-up-${Date.now()}`;
    await new Promise<void>((resolve, reject) => {
      const socket = connect(server.port, '127.0.0.1', () => {
        socket.write(
          `${requestHead('GET', '/upload/svc_wbs/', {
            apikey: key,
            'Content-Length': 100,
            'X-Request-Id': requestId,
          })}{"query":"top`,
        );
        setTimeout(() => {
          socket.destroy();
          resolve();
        }, 50);
      });
      socket.on('error', reject);
    });
    const line = await waitForLine(
      server,
      (l) => l.includes(requestId) && l.includes('"statusCode"'),
    );
    const entry = JSON.parse(line) as { level: number; res: { statusCode: number } };
    assert.ok(entry.res.statusCode < 500, line);
    assert.ok(
      !server.output.some((l) => l.includes(requestId) && l.includes('"level":50')),
      'no error-level log line for the hang-up',
    );
  });

  test('a body that is not JSON → 400 invalid_json', async () => {
    const bodies = [
      '{',
      '{"query":"topics","condition":"specific","parameters":{"id":1},}',
      "{'query':'topics'}",
      'query=topics',
      '{"query":"topics"} {"condition":"specific"}',
      'undefined',
    ];
    for (const body of bodies) {
      const reply = await call(server.url, { headers: { apikey: key }, body });
      assertError(reply, 400, 'invalid_json');
    }
  });

  test('an empty body, or none at all → 400 invalid_json', async () => {
    for (const body of ['', '   ', '\r\n', undefined]) {
      const reply = await call(server.url, { headers: { apikey: key }, body });
      assertError(reply, 400, 'invalid_json');
    }
    const chunkedEmpty = await rawExchange({
      port: server.port,
      parts: [
        requestHead('GET', '/upload/svc_wbs/', { apikey: key, 'Transfer-Encoding': 'chunked' }) +
          LAST_CHUNK,
      ],
    });
    assertError(chunkedEmpty, 400, 'invalid_json');
  });

  test('JSON that is not an object → 400 invalid_json', async () => {
    for (const body of ['[]', JSON.stringify([topicBody(1)]), '"topics"', '42', 'null', 'true']) {
      const reply = await call(server.url, { headers: { apikey: key }, body });
      assertError(reply, 400, 'invalid_json');
    }
  });

  test('invalid UTF-8 bytes → 400 invalid_json, not a silent replacement', async () => {
    const json = JSON.stringify({ ...topicBody(1), note: 'NOTE' });
    const [head, tail] = json.split('NOTE') as [string, string];
    const invalid = [
      Buffer.from([0xff]),
      Buffer.from([0xc3]), // a lead byte with no continuation
      Buffer.from([0xc0, 0xaf]), // an overlong encoding of "/"
      Buffer.from([0xed, 0xa0, 0x80]), // a UTF-16 surrogate
    ];
    for (const bytes of invalid) {
      const reply = await call(server.url, {
        headers: { apikey: key },
        body: Buffer.concat([Buffer.from(head), bytes, Buffer.from(tail)]),
      });
      assertError(reply, 400, 'invalid_json');
    }
    // The same body with valid UTF-8 there is fine: the bytes, not the field, made the 400.
    const valid = await call(server.url, {
      headers: { apikey: key },
      body: Buffer.concat([Buffer.from(head), Buffer.from('é€😀'), Buffer.from(tail)]),
    });
    assert.equal(valid.status, 200, valid.text);
  });
});

describeWithDatabase('DESKGATE_BODY_LIMIT', SQLITE, (database) => {
  const LIMIT = 20_000;
  const server = useTestServer({
    database,
    env: { DESKGATE_BODY_LIMIT: String(LIMIT) },
  });
  let key: string;
  before(async () => {
    key = server.key;
  });

  test('bodies over the default but within the configured limit are accepted', async () => {
    for (const size of [DEFAULT_LIMIT + 1, 18_000, LIMIT]) {
      const plain = await call(server.url, {
        headers: { apikey: key },
        body: topicBodyOfSize(size),
      });
      assert.equal(plain.status, 200, `${size}: ${plain.text}`);
      const chunked = await call(server.url, {
        headers: { apikey: key, ...CHUNKED },
        body: topicBodyOfSize(size),
        chunked: true,
      });
      assert.equal(chunked.status, 200, `${size} chunked: ${chunked.text}`);
    }
  });

  test('one byte over the configured limit → 413, Content-Length or chunked', async () => {
    const body = topicBodyOfSize(LIMIT + 1);
    assertError(
      await call(server.url, { headers: { apikey: key }, body }),
      413,
      'payload_too_large',
    );
    const chunked = await rawExchange({
      port: server.port,
      parts: [
        requestHead('GET', '/upload/svc_wbs/', { apikey: key, 'Transfer-Encoding': 'chunked' }) +
          chunk(body).toString() +
          LAST_CHUNK,
      ],
    });
    assertError(chunked, 413, 'payload_too_large');
  });
});
