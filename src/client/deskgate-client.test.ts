import assert from 'node:assert/strict';
import { once } from 'node:events';
import { createServer, request, type Server } from 'node:http';
import { createServer as createTcpServer, type Socket } from 'node:net';
import { after, before, test } from 'node:test';
import { describeWithDatabase, SQLITE } from '../../test/helpers/each-database.ts';
import { validUserFields } from '../../test/helpers/http.ts';
import { useTestServer } from '../../test/helpers/test-server.ts';
import { assertTopicRecord } from '../../test/helpers/topic-record.ts';
// Imported the way users import it: through the package's "exports".
import { DeskgateClient, DeskgateClientError, DeskgateError } from './index.ts';
import type { NewUserFields } from './wire-types.ts';

function newUser(overrides: Partial<NewUserFields> = {}): NewUserFields {
  return validUserFields(overrides);
}

/**
 * A real HTTP front for the real server that fails the first requests as told (an answer such as
 * a 503, or a dropped connection), then passes requests through. It counts what it received.
 */
interface Front {
  url: string;
  received: number;
  failNext(...failures: (Failure | 'drop')[]): void;
  close(): Promise<void>;
}
interface Failure {
  status: number;
  retryAfter?: string;
}

async function startFront(target: string): Promise<Front> {
  const failures: (Failure | 'drop')[] = [];
  const front = {
    url: '',
    received: 0,
    failNext: (...next: (Failure | 'drop')[]) => failures.push(...next),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
  const server: Server = createServer((req, res) => {
    front.received++;
    const failure = failures.shift();
    if (failure === 'drop') {
      req.socket.destroy();
      return;
    }
    if (failure) {
      req.resume();
      const body = JSON.stringify({
        status: 'Error',
        time: 0,
        data: 'injected',
        code: failure.status === 429 ? 'too_many_requests' : 'database_unavailable',
      });
      res.writeHead(failure.status, {
        'Content-Type': 'application/json; charset=utf-8',
        ...(failure.retryAfter ? { 'Retry-After': failure.retryAfter } : {}),
      });
      res.end(body);
      return;
    }
    const upstream = request(`${target}${req.url}`, { method: req.method, headers: req.headers });
    upstream.on('response', (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  server.keepAliveTimeout = 100;
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  assert.ok(address && typeof address === 'object');
  front.url = `http://127.0.0.1:${address.port}`;
  return front;
}

describeWithDatabase('DeskgateClient against the real server', SQLITE, (database) => {
  const server = useTestServer({ database });
  const notFound404 = useTestServer({
    database,
    env: {
      DESKGATE_NOT_FOUND_STATUS: '404',
      DESKGATE_BASE_PATH: '/helpdesk',
      DESKGATE_AUTH_FAILURE_LIMIT: '1',
    },
  });
  let key: string;
  let front: Front;
  const clients: DeskgateClient[] = [];

  function client(options: Partial<ConstructorParameters<typeof DeskgateClient>[0]> = {}) {
    const made = new DeskgateClient({
      baseUrl: server.origin,
      apiKey: key,
      retryDelayMs: 10,
      ...options,
    });
    clients.push(made);
    return made;
  }

  before(async () => {
    ({ key } = await server.createKey());
    front = await startFront(server.origin);
  });
  after(async () => {
    for (const made of clients) made.close();
    await front?.close();
  });

  test('the error class is exported under both names', () => {
    assert.equal(DeskgateError, DeskgateClientError);
  });

  test('getTopic returns the topic, or null for the 204 and for a 404 not_found', async () => {
    const topic = await client().getTopic(1);
    assertTopicRecord(topic);
    assert.equal(topic?.id, '1');
    assert.equal(topic?.topic, 'General Inquiry');
    assert.equal(await client().getTopic('999999'), null);
    const prefixed = client({ baseUrl: `${notFound404.origin}/helpdesk/` });
    assert.equal((await prefixed.getTopic(2))?.id, '2');
    assert.equal(await prefixed.getTopic(999_999), null);
  });

  test('addUser returns the new id; the server’s errors arrive as DeskgateClientError', async () => {
    const fields = newUser();
    const id = await client().addUser(fields);
    assert.match(id, /^[1-9][0-9]*$/);

    const duplicate = await client()
      .addUser({ ...fields, email: fields.email.toUpperCase() })
      .catch((error: unknown) => error);
    assert.ok(duplicate instanceof DeskgateClientError);
    assert.equal(duplicate.status, 409);
    assert.equal(duplicate.code, 'duplicate_email');
    assert.equal(duplicate.existingId, id);
    assert.match(String(duplicate.requestId), /./);

    const invalid = await client({ retries: 5 })
      .addUser(newUser({ email: 'nope', timezone: 'Mars/Base' }), { requestId: 'client-test-1' })
      .catch((error: unknown) => error);
    assert.ok(invalid instanceof DeskgateClientError);
    assert.equal(invalid.status, 400);
    assert.equal(invalid.code, 'invalid_parameters');
    assert.equal(invalid.requestId, 'client-test-1');
    assert.deepEqual(invalid.errors.map((e) => e.field).sort(), [
      'parameters.email',
      'parameters.timezone',
    ]);

    const badKey = await client({ apiKey: '0'.repeat(32) })
      .getTopic(1)
      .catch((error: unknown) => error);
    assert.ok(badKey instanceof DeskgateClientError);
    assert.equal(badKey.status, 401);
    assert.equal(badKey.code, 'invalid_api_key');
  });

  test('an idempotencyKey makes a repeated addUser return the first id', async () => {
    const fields = newUser();
    const first = await client().addUser(fields, { idempotencyKey: 'client-idem-1' });
    const again = await client().addUser(fields, { idempotencyKey: 'client-idem-1' });
    assert.equal(again, first);
  });

  test('getTopic is retried on 503, 429 and dropped connections, honouring Retry-After', async () => {
    const through = client({ baseUrl: front.url, retries: 3 });
    front.received = 0;
    front.failNext({ status: 503 }, 'drop', { status: 429, retryAfter: '1' });
    const startedAt = Date.now();
    const topic = await through.getTopic(1);
    assert.equal(topic?.id, '1');
    assert.equal(front.received, 4);
    assert.ok(Date.now() - startedAt >= 1_000, 'waited the Retry-After second');
  });

  test('retries stop after the last attempt, with the last answer', async () => {
    const through = client({ baseUrl: front.url, retries: 2 });
    front.received = 0;
    front.failNext({ status: 503 }, { status: 503 }, { status: 503 });
    const error = await through.getTopic(1).catch((e: unknown) => e);
    assert.ok(error instanceof DeskgateClientError);
    assert.equal(error.status, 503);
    assert.equal(error.code, 'database_unavailable');
    assert.equal(front.received, 3);
    front.received = 0;
    front.failNext({ status: 503 });
    assert.equal((await through.getTopic(1))?.id, '1');
    assert.equal(front.received, 2);
  });

  test('addUser is retried only with an idempotencyKey', async () => {
    const through = client({ baseUrl: front.url, retries: 3 });
    front.received = 0;
    front.failNext({ status: 503, retryAfter: '0' });
    const error = await through.addUser(newUser()).catch((e: unknown) => e);
    assert.ok(error instanceof DeskgateClientError);
    assert.equal(error.status, 503);
    assert.equal(error.retryAfterSeconds, 0);
    assert.equal(front.received, 1);

    front.received = 0;
    front.failNext('drop', { status: 503, retryAfter: '0' });
    const fields = newUser();
    const id = await through.addUser(fields, { idempotencyKey: 'client-retry-1' });
    assert.equal(front.received, 3);
    assert.equal(await client().addUser(fields, { idempotencyKey: 'client-retry-1' }), id);
  });

  // Issue 33, item 5: call reaches every operation by its name, with no method of its own.
  test('call sends any operation by name: look-ups as a GET, writes as a POST retried only with an idempotencyKey', async () => {
    const through = client({ baseUrl: front.url, retries: 3 });
    front.received = 0;
    front.failNext({ status: 503, retryAfter: '0' });
    const added = await through.call(
      'user/add',
      { parameters: newUser() },
      { idempotencyKey: 'client-call-1' },
    );
    assert.equal(front.received, 2);
    assert.match(added ?? '', /^\d+$/);

    front.received = 0;
    front.failNext({ status: 503 });
    const topic = await through.call('topics/specific', { sort: 'id', parameters: { id: 1 } });
    assert.equal(topic?.topic.id, '1');
    assert.equal(front.received, 2);
    assert.equal(
      await through.call('topics/specific', { sort: 'id', parameters: { id: 9999 } }),
      null,
    );

    front.received = 0;
    front.failNext({ status: 503, retryAfter: '0' });
    const refused = await through
      .call('user/add', { parameters: newUser() })
      .catch((e: unknown) => e);
    assert.ok(refused instanceof DeskgateClientError);
    assert.equal(refused.status, 503);
    assert.equal(front.received, 1);
  });

  test('a Retry-After longer than maxRetryDelayMs ends the retrying at once', async () => {
    // The real failed-auth limit: the second bad key from this address gets 429, Retry-After 60.
    const guesser = client({
      baseUrl: `${notFound404.origin}/helpdesk`,
      apiKey: 'A'.repeat(32),
      maxRetryDelayMs: 2_000,
    });
    let error: unknown;
    for (let attempt = 0; attempt < 5; attempt++) {
      error = await guesser.getTopic(1).catch((e: unknown) => e);
      if (error instanceof DeskgateClientError && error.status === 429) break;
    }
    assert.ok(error instanceof DeskgateClientError);
    assert.equal(error.status, 429);
    assert.equal(error.code, 'too_many_requests');
    assert.ok((error.retryAfterSeconds ?? 0) > 2);
  });

  test('a server that does not answer times out, and getTopic retries the timeout', async () => {
    const sockets = new Set<Socket>();
    let connections = 0;
    const silent = createTcpServer((socket) => {
      connections++;
      sockets.add(socket);
    });
    silent.listen(0, '127.0.0.1');
    await once(silent, 'listening');
    const address = silent.address();
    assert.ok(address && typeof address === 'object');
    try {
      const slow = client({
        baseUrl: `http://127.0.0.1:${address.port}`,
        timeoutMs: 150,
        retries: 1,
      });
      const startedAt = Date.now();
      const error = await slow.getTopic(1).catch((e: unknown) => e);
      assert.ok(error instanceof DeskgateClientError);
      assert.equal(error.code, 'timeout');
      assert.equal(error.status, 0);
      assert.ok(Date.now() - startedAt >= 300);
      assert.equal(connections, 2);
      const single = await slow.addUser(newUser()).catch((e: unknown) => e);
      assert.equal((single as DeskgateClientError).code, 'timeout');
      assert.equal(connections, 3);
    } finally {
      for (const socket of sockets) socket.destroy();
      silent.close();
    }
  });

  test('a refused connection is a network_error', async () => {
    const nowhere = client({ baseUrl: 'http://127.0.0.1:9', retries: 1 });
    const error = await nowhere.getTopic(1).catch((e: unknown) => e);
    assert.ok(error instanceof DeskgateClientError);
    assert.equal(error.code, 'network_error');
  });
});
