import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { describeWithDatabase, SQLITE } from '../helpers/each-database.ts';
import { call, topicBody, userBody } from '../helpers/http.ts';
import { useTestServer } from '../helpers/test-server.ts';
import { openRawConnection, type RawConnection } from '../server/raw-connection.ts';
import { countRows } from '../support/database-rows.ts';
import { assertAlive, assertCleanLog, assertWellFormed } from './robustness-support.ts';

/**
 * Slow and abusive clients: byte-at-a-time headers or bodies are cut off by the timeouts while
 * others are served; idle connections are bounded by DESKGATE_MAX_CONNECTIONS; a flood beyond
 * DESKGATE_MAX_IN_FLIGHT is shed at once with 503 overloaded + Retry-After.
 */

/** Not a timing assertion: a generous bound only a server that ignores its timeouts exceeds. */
const DROP_LIMIT_MS = 10_000;

/** Writes `text` one byte every `pauseMs` until done or the server closes the connection. */
async function trickle(connection: RawConnection, text: string, pauseMs: number): Promise<number> {
  let sent = 0;
  let closed = false;
  void connection.closed.then(() => {
    closed = true;
  });
  for (const byte of Buffer.from(text)) {
    if (closed || connection.socket.destroyed) break;
    connection.socket.write(Buffer.from([byte]));
    sent++;
    await sleep(pauseMs);
  }
  return sent;
}

/** Answers to `count` ordinary requests, one after another, with each one's latency in ms. */
async function serveMeanwhile(
  server: { url: string },
  key: string,
  count: number,
): Promise<number[]> {
  const latencies: number[] = [];
  for (let i = 0; i < count; i++) {
    const started = performance.now();
    const reply = await call(server.url, { headers: { apikey: key }, body: topicBody(1) });
    assert.equal(reply.status, 200, reply.text);
    latencies.push(performance.now() - started);
    await sleep(100);
  }
  return latencies;
}

describeWithDatabase('slow clients', SQLITE, (database) => {
  const server = useTestServer({
    database,
    env: {
      DESKGATE_HEADERS_TIMEOUT: '500',
      DESKGATE_REQUEST_TIMEOUT: '1000',
      DESKGATE_RATE_LIMIT: '0',
    },
  });
  let key: string;
  before(async () => {
    key = server.key;
  });

  test('headers one byte at a time: cut off by the headers timeout; others served meanwhile', {
    timeout: DROP_LIMIT_MS * 2,
  }, async () => {
    const slow = await openRawConnection(server.port);
    try {
      const head = `GET /upload/svc_wbs/ HTTP/1.1\r\nHost: localhost\r\napikey: ${key}\r\nX-Padding: ${'p'.repeat(200)}\r\n\r\n`;
      // 250 bytes at 40 ms each would take 10 s; the headers timeout is 0.5 s.
      const [sent, latencies] = await Promise.all([
        trickle(slow, head, 40),
        serveMeanwhile(server, key, 10),
      ]);
      await slow.closed;
      assert.ok(sent < Buffer.byteLength(head), 'the whole head went through');
      assert.match(slow.received(), /^(HTTP\/1\.1 408 [^\r\n]*\r\n[\s\S]*)?$/);
      assert.ok(Math.max(...latencies) < 1_000, `others waited ${Math.max(...latencies)} ms`);
    } finally {
      slow.socket.destroy();
    }
  });

  test('a body one byte at a time: cut off by the request timeout; no row written', {
    timeout: DROP_LIMIT_MS * 2,
  }, async () => {
    const before = await countRows(database.url, ['users']);
    const slow = await openRawConnection(server.port);
    try {
      const body = JSON.stringify(userBody());
      slow.socket.write(
        `POST /upload/svc_wbs/ HTTP/1.1\r\nHost: localhost\r\napikey: ${key}\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n`,
      );
      const [sent, latencies] = await Promise.all([
        trickle(slow, body, 40),
        serveMeanwhile(server, key, 15),
      ]);
      await slow.closed;
      assert.ok(sent < Buffer.byteLength(body), 'the whole body went through');
      assert.doesNotMatch(slow.received(), /^HTTP\/1\.1 200/);
      assert.ok(Math.max(...latencies) < 1_000, `others waited ${Math.max(...latencies)} ms`);
      assert.deepEqual(await countRows(database.url, ['users']), before);
    } finally {
      slow.socket.destroy();
    }
  });

  test('the log stays JSON lines without the key', async () => {
    await sleep(100);
    assertCleanLog(server, [key]);
  });
});

describeWithDatabase('many idle connections', SQLITE, (database) => {
  const server = useTestServer({
    database,
    env: {
      DESKGATE_MAX_CONNECTIONS: '20',
      DESKGATE_HEADERS_TIMEOUT: '1000',
      DESKGATE_REQUEST_TIMEOUT: '2000',
    },
  });
  let key: string;
  before(async () => {
    key = server.key;
  });

  test('connections beyond DESKGATE_MAX_CONNECTIONS are closed at once; the idle rest time out', {
    timeout: DROP_LIMIT_MS * 2,
  }, async () => {
    const connections: RawConnection[] = [];
    try {
      for (let i = 0; i < 60; i++) connections.push(await openRawConnection(server.port));
      let closedCount = 0;
      for (const c of connections) {
        void c.closed.then(() => {
          closedCount++;
        });
      }
      await sleep(200);
      // Only 20 are kept; the headers timeout (1 s) cannot have closed any of them yet.
      assert.ok(closedCount >= 40, `only ${closedCount} of 60 connections were closed at once`);
      // The kept ones never send a byte: the headers timeout frees them.
      await Promise.all(connections.map((c) => c.closed));
      const reply = await call(server.url, { headers: { apikey: key }, body: topicBody(1) });
      assert.equal(reply.status, 200, reply.text);
      assertAlive(server);
    } finally {
      for (const c of connections) c.socket.destroy();
    }
  });
});

describeWithDatabase('load shedding', SQLITE, (database) => {
  const server = useTestServer({
    database,
    env: { DESKGATE_MAX_IN_FLIGHT: '2', DESKGATE_BCRYPT_COST: '12', DESKGATE_RATE_LIMIT: '0' },
  });
  let key: string;
  const passwords: string[] = [];
  before(async () => {
    key = server.key;
    // Two requests at a time, each holding its slot for a slow bcrypt (cost 12, ~0.2 s or more).
  });

  test('a flood beyond DESKGATE_MAX_IN_FLIGHT gets 503 overloaded with Retry-After at once; the rest is served', {
    timeout: 60_000,
  }, async () => {
    const before = await countRows(database.url, ['users']);
    const flood = Array.from({ length: 12 }, (_, i) => {
      const password = `flood-password-${i}-${Math.random()}`;
      passwords.push(password);
      return call(server.url, {
        method: 'POST',
        headers: { apikey: key },
        body: userBody({ password }),
      });
    });
    // The service endpoints stay outside the cap: a load balancer still sees the instance alive.
    const health = await call(`${server.origin}/healthz`);
    assert.equal(health.status, 200);
    const replies = await Promise.all(flood);
    for (const reply of replies) assertWellFormed(reply, { allowOverloaded: true });
    const served = replies.filter((r) => r.status === 200);
    const shed = replies.filter((r) => r.status === 503);
    assert.equal(
      served.length + shed.length,
      replies.length,
      replies.map((r) => r.status).join(','),
    );
    assert.ok(served.length >= 2, `only ${served.length} served`);
    assert.ok(shed.length >= 1, 'nothing was shed');
    for (const reply of shed) {
      assert.equal(reply.body?.code, 'overloaded');
      assert.equal(reply.headers['retry-after'], '1');
    }
    // Shed requests are answered without waiting for a slot: faster than any served one.
    const slowestShed = Math.max(...shed.map((r) => Number(r.body?.time)));
    const fastestServed = Math.min(...served.map((r) => Number(r.body?.time)));
    assert.ok(
      slowestShed < fastestServed,
      `shed in ${slowestShed} s, served in ${fastestServed} s`,
    );
    // Only the served requests wrote; a shed one wrote nothing.
    assert.deepEqual(await countRows(database.url, ['users']), [(before[0] ?? 0) + served.length]);
    // Once the flood is over, capacity is back.
    const later = await call(server.url, {
      method: 'POST',
      headers: { apikey: key },
      body: userBody(),
    });
    assert.equal(later.status, 200, later.text);
    assertAlive(server);
    await sleep(100);
    assertCleanLog(server, [key, ...passwords]);
  });
});
