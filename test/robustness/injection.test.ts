import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { users } from '../../src/data/users/users.ts';
import { passwordMatches } from '../../src/operations/user-add/password.ts';
import { runCliJson } from '../cli/cli-assertions.ts';
import { describeEachDatabase } from '../helpers/each-database.ts';
import { call, type Reply, topicBody, userBody } from '../helpers/http.ts';
import { withStore } from '../helpers/server.ts';
import { useTestServer } from '../helpers/test-server.ts';
import { rawExchange } from '../http/raw-exchange.ts';
import { countRows } from '../support/database-rows.ts';
import { assertAlive, assertCleanLog, assertWellFormed } from './robustness-support.ts';

/**
 * An injection corpus in every field and header: SQL, header (CR/LF) and log injection. Values
 * the validation accepts are stored and come back byte for byte; the others are refused with an
 * envelope and write nothing; no statement runs that the corpus wrote; the log stays one JSON
 * object per line.
 */
const SQL = [
  "'; DROP TABLE users; --",
  "Robert'); DROP TABLE user_emails;--",
  '" OR "1"="1',
  "' OR '1'='1' --",
  "1'; DELETE FROM api_keys; --",
  "' UNION SELECT key_hash, name FROM api_keys --",
  "'; SELECT pg_sleep(5); --",
  "' OR SLEEP(5) #",
  "'; ATTACH DATABASE '/tmp/x.db' AS x; --",
  '`users`; TRUNCATE users',
  '$1 $2 ? :name @p0',
  "\\'; DROP TABLE users; \\\\",
  '%_%\\%',
];
/** Fake log records and line breaks of every kind: none may start a line of its own in the log. */
const LOG = [
  'a\n{"level":60,"msg":"forged","pid":1}',
  'b\r\n{"level":60,"msg":"forged"}',
  'c\u2028{"msg":"forged"}\u2029',
  'd\u0085e',
  '"},"msg":"forged","x":{"',
  'e\u001b[2J\u001b[31mred',
  'f\u0000g',
];
const UNICODE = [
  'a\ud800b',
  'lone \udfff',
  'Zoë Ångström',
  '名前',
  '🙂‍↔️ emoji',
  '\u202eRTL override',
  'x'.repeat(128),
];

/** Refused in names: control characters, and lone surrogates (not text; UTF-8 cannot hold them). */
const REFUSED = (name: string) => /\p{Cc}/u.test(name) || !name.isWellFormed();

function assertError(reply: Reply, status: number, code: string): void {
  assertWellFormed(reply);
  assert.equal(reply.status, status, reply.text);
  assert.equal(reply.body?.code, code, reply.text);
}

describeEachDatabase('injection corpus', (database) => {
  const server = useTestServer({
    database,
    env: { DESKGATE_AUTH_FAILURE_LIMIT: '100000', DESKGATE_RATE_LIMIT: '0' },
  });
  let key: string;
  const secrets: string[] = [];
  let created = 0;
  before(async () => {
    key = server.key;
    secrets.push(key);
  });

  async function addUser(
    overrides: Record<string, unknown>,
    headers: Record<string, string> = {},
  ): Promise<Reply> {
    const reply = await call(server.url, {
      method: 'POST',
      headers: { apikey: key, ...headers },
      body: userBody(overrides),
    });
    assertWellFormed(reply);
    return reply;
  }

  test('names: accepted values come back byte for byte, control characters are refused', async () => {
    for (const name of [...SQL, ...LOG, ...UNICODE]) {
      const reply = await addUser({ name });
      if (REFUSED(name)) {
        assertError(reply, 400, 'invalid_parameters');
        continue;
      }
      assert.equal(reply.status, 200, `${JSON.stringify(name)}: ${reply.text}`);
      created++;
      const id = Number(reply.body?.data);
      const user = await withStore(database.url, (store) => store.data(users).findUserById(id));
      assert.equal(user?.name, name.trim());
    }
  });

  test('emails: an accepted address is stored as sent; SQL in the local part does nothing', async () => {
    const accepted = [
      "o'brien--drop@example.com",
      "x'+union+select--@example.com",
      'under_score+tag@example.com',
    ];
    for (const email of accepted) {
      const reply = await addUser({ email });
      assert.equal(reply.status, 200, `${email}: ${reply.text}`);
      created++;
      const id = String(reply.body?.data);
      // Through the CLI once (what an operator sees), through the Store for the rest.
      const shown =
        email === accepted[0]
          ? await runCliJson<{ email: string }>(['users', 'get', id, '--database', database.url])
          : await withStore(database.url, (store) => store.data(users).findUserById(Number(id)));
      assert.equal(shown?.email, email);
    }
    // The same address with other letter case is the same address, whatever quotes it holds.
    assertError(await addUser({ email: "O'Brien--DROP@example.com" }), 409, 'duplicate_email');
    for (const email of [
      ...SQL,
      ...LOG,
      "a'@example.com'; --",
      'x@example.com\n{"msg":"forged"}',
    ]) {
      assertError(await addUser({ email }), 400, 'invalid_parameters');
    }
  });

  test('passwords: any text is hashed, never stored or logged in clear, and verifies afterwards', async () => {
    for (const password of [...SQL, ...LOG, ...UNICODE]) {
      secrets.push(password);
      const reply = await addUser({ password });
      if (!password.isWellFormed() || [...password].length < 6) {
        // Two such passwords would hash alike: refused, not silently changed. Fewer than 6
        // characters is below osTicket's minimum (SPEC §7).
        assertError(reply, 400, 'invalid_parameters');
        continue;
      }
      assert.equal(reply.status, 200, reply.text);
      created++;
      const hash = await withStore(database.url, (store) =>
        store.data(users).findPasswordHash(Number(reply.body?.data)),
      );
      assert.ok(hash && hash !== password && !hash.includes(password));
      assert.equal(await passwordMatches(password, hash), true);
    }
  });

  test('time zones, numbers, ids, query and condition: the corpus is refused, nothing runs', async () => {
    for (const value of [...SQL, ...LOG]) {
      for (const field of ['timezone', 'phone', 'org_id', 'default_email_id', 'status']) {
        assertError(await addUser({ [field]: value }), 400, 'invalid_parameters');
      }
      const topic = await call(server.url, { headers: { apikey: key }, body: topicBody(value) });
      assertError(topic, 400, 'invalid_parameters');
      const operation = await call(server.url, {
        headers: { apikey: key },
        body: { query: value, condition: value, parameters: {} },
      });
      assertError(operation, 400, 'unknown_operation');
      const field = await call(server.url, {
        method: 'POST',
        headers: { apikey: key },
        body: { query: 'user', condition: 'add', parameters: { [value]: 1 } },
      });
      assertError(field, 400, 'invalid_parameters');
    }
  });

  test('headers: SQL in apikey is an invalid key; odd X-Request-Id is replaced; Idempotency-Key is kept byte for byte', async () => {
    for (const value of SQL) {
      const reply = await call(server.url, { headers: { apikey: value }, body: topicBody(1) });
      assertError(reply, 401, 'invalid_api_key');
      const traced = await call(server.url, {
        headers: { apikey: key, 'X-Request-Id': value },
        body: topicBody(1),
      });
      assert.equal(traced.status, 200);
      assert.notEqual(traced.headers['x-request-id'], value);
      assert.match(String(traced.headers['x-request-id']), /^[A-Za-z0-9._:@/+=-]{1,128}$/);
    }
    for (const idempotencyKey of SQL) {
      const overrides = { email: `idem.${created}@example.com` };
      const first = await addUser(overrides, { 'Idempotency-Key': idempotencyKey });
      assert.equal(first.status, 200, first.text);
      created++;
      // A replay finds the stored key: it was stored exactly as sent, not mangled or split.
      const again = await addUser(overrides, { 'Idempotency-Key': idempotencyKey });
      assert.equal(again.status, 200, again.text);
      assert.equal(again.body?.data, first.body?.data);
    }
  });

  test('CR/LF in header values over a raw socket: refused with an envelope, nothing injected into the response', async () => {
    const body = JSON.stringify(userBody());
    const attempts = [
      `X-Request-Id: abc\r\nSet-Cookie: injected=1`,
      `X-Request-Id: abc\nSet-Cookie: injected=1`,
      `X-Request-Id: abc\rSet-Cookie: injected=1`,
      `Idempotency-Key: k\r\n\r\nGET /healthz HTTP/1.1`,
      `apikey: ${key}\rX-Injected: 1`,
      `apikey: ${key}\nX-Injected: 1`,
      `X-Request-Id: a\u0000b`,
    ];
    for (const header of attempts) {
      const before = await countRows(database.url, ['users']);
      const head = `POST /upload/svc_wbs/ HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\napikey: ${key}\r\n${header}\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n`;
      const reply = await rawExchange({ port: server.port, parts: [head + body] });
      assertWellFormed(reply);
      assert.equal(reply.headers['set-cookie'], undefined);
      assert.equal(reply.headers['x-injected'], undefined);
      assert.match(reply.headers['x-request-id'] ?? '', /^[A-Za-z0-9._:@/+=-]{1,128}$/);
      const after = await countRows(database.url, ['users']);
      if (reply.status === 200) {
        // The parser read the line break as the end of one header and the start of another:
        // the request is the client's own, with one more header; nothing reached the response.
        created++;
        assert.deepEqual(after, [(before[0] ?? 0) + 1]);
      } else {
        assert.equal(reply.status, 400, `${JSON.stringify(header)}: ${reply.text}`);
        assert.deepEqual(after, before);
      }
    }
  });

  test('afterwards: every table is intact, the key still works, the log is one JSON object per line', async () => {
    const [users, emails, accounts, keys] = await countRows(database.url, [
      'users',
      'user_emails',
      'user_accounts',
      'api_keys',
    ]);
    assert.equal(users, created);
    assert.equal(emails, created);
    assert.equal(accounts, created);
    assert.equal(keys, 1);
    const reply = await call(server.url, { headers: { apikey: key }, body: topicBody(1) });
    assert.equal(reply.status, 200);
    assertAlive(server);
    await new Promise((resolve) => setTimeout(resolve, 100));
    assertCleanLog(server, secrets);
    for (const line of server.output) {
      assert.notEqual((JSON.parse(line) as { msg?: string }).msg, 'forged', line);
    }
  });
});
