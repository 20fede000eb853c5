import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { describeWithDatabase, SQLITE } from '../helpers/each-database.ts';
import { call, topicBody } from '../helpers/http.ts';
import { useTestServer } from '../helpers/test-server.ts';
import { openRawConnection } from './raw-connection.ts';

/**
 * How long a test waits for the server to drop a stalled client. Not a timing assertion: a
 * generous multiple of the configured timeouts, that only a server which does not enforce them
 * (or checks them every 30 s, node:http's default) can exceed.
 */
const DROP_LIMIT_MS = 10_000;

// The two clients wait out the same timeouts side by side.
describeWithDatabase(
  'header and request timeouts',
  SQLITE,
  (database) => {
    const server = useTestServer({
      database,
      env: { DESKGATE_HEADERS_TIMEOUT: '1000', DESKGATE_REQUEST_TIMEOUT: '2000' },
    });
    let key: string;
    before(async () => {
      ({ key } = await server.createKey({ scopes: ['read'] }));
    });

    test('a client that stops in the middle of the request line is disconnected; others are served', {
      timeout: DROP_LIMIT_MS,
    }, async () => {
      const slow = await openRawConnection(server.port);
      const silent = await openRawConnection(server.port);
      try {
        slow.socket.write('GET /upload/sv');
        // Meanwhile the server answers everyone else as usual.
        for (let i = 0; i < 3; i++) {
          const reply = await call(server.url, { headers: { apikey: key }, body: topicBody(1) });
          assert.equal(reply.status, 200);
        }
        await Promise.all([slow.closed, silent.closed]);
        // Whatever the server said before closing, it never served the partial request.
        for (const connection of [slow, silent]) {
          assert.match(connection.received(), /^(HTTP\/1\.1 408 [^\r\n]*\r\n[\s\S]*)?$/);
        }
        const reply = await call(server.url, { headers: { apikey: key }, body: topicBody(1) });
        assert.equal(reply.status, 200, 'the server still works after dropping the slow clients');
      } finally {
        slow.socket.destroy();
        silent.socket.destroy();
      }
    });

    test('a client that sends its headers but stalls in the body is disconnected', {
      timeout: DROP_LIMIT_MS,
    }, async () => {
      const slow = await openRawConnection(server.port);
      try {
        const body = JSON.stringify(topicBody(1));
        slow.socket.write(
          `GET /upload/svc_wbs/ HTTP/1.1\r\nHost: 127.0.0.1\r\napikey: ${key}\r\n` +
            `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body.slice(0, 10)}`,
        );
        const reply = await call(server.url, { headers: { apikey: key }, body: topicBody(1) });
        assert.equal(reply.status, 200);
        await slow.closed;
        assert.doesNotMatch(slow.received(), /^HTTP\/1\.1 200/);
      } finally {
        slow.socket.destroy();
      }
    });
  },
  { concurrency: true },
);
