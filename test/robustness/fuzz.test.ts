import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import fc from 'fast-check';
import type { Kysely } from 'kysely';
import { openDatabase } from '../../src/data/open-database.ts';
import { passwordMatches } from '../../src/operations/user-add/password.ts';
import { describeEachDatabase } from '../helpers/each-database.ts';
import { call, userFields } from '../helpers/http.ts';
import { useTestServer } from '../helpers/test-server.ts';
import { rawExchange } from '../http/raw-exchange.ts';
import type { Database } from '../support/own-schema.ts';
import {
  assertAlive,
  assertCleanLog,
  assertWellFormed,
  LONG,
  NUM_RUNS,
} from './robustness-support.ts';

/**
 * Property-based fuzzing of the real server: generated bodies, parameter values and headers.
 * Whatever arrives, the answer is never a 5xx, always a well-formed envelope (or a 204), the
 * process keeps running, and a request that is not a 200 user/add writes no row.
 */

/** Raw JSON text for one value: the forms JSON.stringify cannot produce are written by hand. */
const NUMBER_EDGES = [
  '0',
  '-0',
  '1',
  '-1',
  '1.0',
  '1.5',
  '1e3',
  '1E400',
  '-1e400',
  '1e-400',
  '2147483647',
  '2147483648',
  '-2147483649',
  '999999999999999',
  '1000000000000000',
  '9007199254740993',
  '99999999999999999999999999999999',
  '0.1e1',
  '00',
  '01',
];
const STRING_EDGES = [
  '""',
  '" "',
  '"\\u0000"',
  '"a\\u0000b"',
  '"\\ud800"',
  '"\\udfff\\ud800"',
  '"\\n\\r\\t"',
  '"\\u001b[31m"',
  '"\\u202e"',
  '"\\ufeff1"',
  '"12\\u0000"',
  '"0x10"',
  '"1e3"',
  '" 7 "',
  '"-1"',
  '"NaN"',
  '"Infinity"',
  '"true"',
  '"null"',
  '"UTC\\u0000"',
  '"Europe/Lisbon "',
  '"../../etc"',
  `"${'9'.repeat(300)}"`,
  `"${'a'.repeat(10_000)}"`,
  `"${'a'.repeat(20_000)}"`,
  '"__proto__"',
  '"constructor"',
];
const OTHER_EDGES = [
  'null',
  'true',
  'false',
  '[]',
  '{}',
  '[1]',
  '{"__proto__":{"polluted":1}}',
  '{"constructor":{"prototype":{"polluted":1}}}',
  `${'['.repeat(5_000)}${']'.repeat(5_000)}`,
  `${'{"a":'.repeat(2_000)}1${'}'.repeat(2_000)}`,
];

const jsonFragment: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(...NUMBER_EDGES, ...STRING_EDGES, ...OTHER_EDGES),
  fc.json({ depthSize: 'small' }),
  fc.string({ unit: 'binary', maxLength: 200 }).map((s) => JSON.stringify(s)),
  fc.string({ unit: 'grapheme', maxLength: 300 }).map((s) => JSON.stringify(s)),
  fc.integer().map(String),
  fc.bigInt({ min: -(10n ** 40n), max: 10n ** 40n }).map(String),
  fc.double({ noNaN: true, noDefaultInfinity: true }).map((n) => JSON.stringify(n)),
);

const FIELD_NAMES = [
  'name',
  'email',
  'password',
  'timezone',
  'phone',
  'org_id',
  'default_email_id',
  'status',
];
const fieldName = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom(...FIELD_NAMES) },
  {
    weight: 1,
    arbitrary: fc.constantFrom('__proto__', 'constructor', 'prototype', 'toString', 'id', ''),
  },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 20 }) },
);

/** A valid user's fields as JSON text, so that mutations of it are sometimes accepted. */
function validFieldText(): [string, string][] {
  return Object.entries(userFields()).map(([k, v]) => [k, JSON.stringify(v)]);
}

/** A user/add parameters object as JSON text: valid fields, some replaced, dropped, duplicated or added. */
const parametersText = fc
  .tuple(
    fc.array(fc.tuple(fieldName, jsonFragment), { maxLength: 3 }),
    fc.array(fc.constantFrom(...FIELD_NAMES), { maxLength: 2 }),
    fc.boolean(),
  )
  .map(([extra, dropped, extraFirst]) => {
    const base = validFieldText().filter(([k]) => !dropped.includes(k));
    const fields = extraFirst ? [...extra, ...base] : [...base, ...extra];
    // Duplicate keys are kept as written: JSON.parse keeps the last one.
    return `{${fields.map(([k, v]) => `${JSON.stringify(k)}:${v}`).join(',')}}`;
  });

const method = fc.oneof(
  { weight: 8, arbitrary: fc.constantFrom('POST', 'POST', 'POST', 'GET') },
  { weight: 1, arbitrary: fc.constantFrom('PUT', 'DELETE', 'PATCH', 'OPTIONS') },
);

/** A whole body as text: operation picked or mangled, parameters generated, top-level extras. */
const bodyText = fc.oneof(
  {
    weight: 8,
    arbitrary: fc
      .tuple(
        fc.oneof(
          { weight: 4, arbitrary: fc.constant('"query":"user","condition":"add"') },
          {
            weight: 1,
            arbitrary: fc.constantFrom(
              '"query":"topics","condition":"specific"',
              '"query":"user","condition":"add","query":"topics"',
              '"__proto__":{"query":"user","condition":"add"}',
              '"query":["user"],"condition":"add"',
              '"query":"USER","condition":"ADD"',
            ),
          },
        ),
        fc.oneof(
          { weight: 4, arbitrary: parametersText },
          { weight: 1, arbitrary: jsonFragment },
          { weight: 1, arbitrary: fc.json().map((p) => `{"id":${p}}`) },
        ),
        fc.constantFrom(
          '',
          '',
          '',
          ',"sort":"id"',
          ',"sort":1',
          ',"constructor":{}',
          ',"parameters":{}',
        ),
      )
      .map(([operation, parameters, extra]) => `{${operation},"parameters":${parameters}${extra}}`),
  },
  { weight: 1, arbitrary: jsonFragment },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 300 }) },
);

async function countWrites(db: Kysely<Database>): Promise<number> {
  let total = 0;
  for (const table of ['users', 'user_emails', 'user_accounts', 'audit_log'] as const) {
    const row = await db
      .selectFrom(table)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    total += Number(row.n);
  }
  return total;
}

describeEachDatabase(
  'fuzzing the real server',
  {
    timeout: LONG ? 3_600_000 : 120_000,
  },
  (database) => {
    const server = useTestServer({
      database,
      env: { DESKGATE_AUTH_FAILURE_LIMIT: '100000000', DESKGATE_RATE_LIMIT: '0' },
    });
    let db: Kysely<Database>;
    let key: string;
    const secrets: string[] = [];

    before(async () => {
      key = server.key;
      secrets.push(key);
      ({ db } = openDatabase<Database>(database.url));
    });
    after(async () => {
      await db?.destroy();
    });

    test('generated bodies and parameters: never a 5xx, a well-formed answer, no row for a rejection', async () => {
      await fc.assert(
        fc.asyncProperty(method, bodyText, async (verb, text) => {
          const before = await countWrites(db);
          const reply = await call(server.url, {
            method: verb,
            headers: { apikey: key },
            body: text,
          });
          assertWellFormed(reply);
          const created = reply.status === 200 && typeof reply.body?.data === 'string';
          // One user is three rows plus its audit entry; anything else writes nothing.
          assert.equal(
            await countWrites(db),
            before + (created ? 4 : 0),
            `${verb} ${text.slice(0, 300)}`,
          );
        }),
        { numRuns: NUM_RUNS },
      );
      assertAlive(server);
    });

    test('generated bytes (invalid UTF-8, NUL, control characters) as the body', async () => {
      const valid = Buffer.from(
        JSON.stringify({ query: 'user', condition: 'add', parameters: userFields() }),
      );
      const bytes = fc.oneof(
        fc.uint8Array({ maxLength: 1_000 }).map((a) => Buffer.from(a)),
        // A valid body with bytes overwritten: invalid UTF-8 sequences inside strings and keys.
        fc
          .array(
            fc.tuple(
              fc.nat(valid.length - 1),
              fc.constantFrom(0x00, 0x0a, 0x1b, 0x7f, 0x80, 0xc0, 0xc3, 0xed, 0xf8, 0xff),
            ),
            {
              minLength: 1,
              maxLength: 4,
            },
          )
          .map((edits) => {
            const copy = Buffer.from(valid);
            for (const [at, byte] of edits) copy[at] = byte;
            return copy;
          }),
      );
      await fc.assert(
        fc.asyncProperty(bytes, async (body) => {
          const before = await countWrites(db);
          const reply = await call(server.url, { method: 'POST', headers: { apikey: key }, body });
          assertWellFormed(reply);
          const created = reply.status === 200;
          if (created) {
            // Only a mutation that left valid UTF-8 and valid fields can be accepted.
            assert.doesNotThrow(() => new TextDecoder('utf-8', { fatal: true }).decode(body));
          }
          assert.equal(await countWrites(db), before + (created ? 4 : 0));
        }),
        { numRuns: NUM_RUNS },
      );
      assertAlive(server);
    });

    test('generated header values (apikey, X-Request-Id, Idempotency-Key, Content-Type) over a raw socket', async () => {
      // Any byte a header value can carry on the wire except CR and LF (the injection corpus
      // covers those): NUL, control characters, DEL and Latin-1 bytes included.
      const headerValue = fc
        .array(
          fc.integer({ min: 0, max: 255 }).filter((b) => b !== 0x0d && b !== 0x0a),
          { maxLength: 200 },
        )
        .map((codes) => Buffer.from(codes).toString('latin1'));
      const headers = fc.record(
        {
          apikey: fc.oneof(
            headerValue,
            fc.constant(key),
            fc.constant(` ${key} `),
            fc.constant(`${key}\u0000`),
          ),
          'x-request-id': headerValue,
          'idempotency-key': headerValue,
          'content-type': fc.oneof(
            headerValue,
            fc.constantFrom('multipart/form-data', 'application/json; charset=latin1'),
          ),
          'x-forwarded-for': headerValue,
        },
        { requiredKeys: [] },
      );
      await fc.assert(
        fc.asyncProperty(headers, fc.constantFrom('GET', 'POST'), async (sent, verb) => {
          const before = await countWrites(db);
          const body = Buffer.from(
            JSON.stringify(
              verb === 'GET'
                ? { query: 'topics', condition: 'specific', parameters: { id: 1 } }
                : { query: 'user', condition: 'add', parameters: userFields() },
            ),
          );
          const head = [
            `${verb} /upload/svc_wbs/ HTTP/1.1`,
            'Host: localhost',
            'Connection: close',
          ];
          for (const [name, value] of Object.entries(sent)) head.push(`${name}: ${value}`);
          head.push(`Content-Length: ${body.length}`);
          const reply = await rawExchange({
            port: server.port,
            parts: [Buffer.concat([Buffer.from(`${head.join('\r\n')}\r\n\r\n`, 'latin1'), body])],
          });
          assertWellFormed(reply);
          // A caller's X-Request-Id comes back only when it is sane; nothing else is reflected.
          assert.match(reply.headers['x-request-id'] ?? '', /^[A-Za-z0-9._:@/+=-]{1,128}$/);
          const created = reply.status === 200 && verb === 'POST';
          assert.equal(await countWrites(db), before + (created ? 4 : 0));
        }),
        { numRuns: NUM_RUNS },
      );
      assertAlive(server);
    });

    test('generated names and passwords: an accepted value comes back exactly as sent', async () => {
      const text = fc.oneof(
        fc.string({ unit: 'binary', minLength: 1, maxLength: 130 }),
        fc.string({ unit: 'grapheme', minLength: 1, maxLength: 130 }),
        // UTF-16 code units one by one: lone surrogates, which JSON can carry as \ud800 escapes.
        fc.string({
          unit: fc.integer({ min: 0, max: 0xffff }).map((unit) => String.fromCharCode(unit)),
          minLength: 1,
          maxLength: 130,
        }),
      );
      await fc.assert(
        fc.asyncProperty(text, text, async (name, password) => {
          const reply = await call(server.url, {
            method: 'POST',
            headers: { apikey: key },
            body: { query: 'user', condition: 'add', parameters: userFields({ name, password }) },
          });
          assertWellFormed(reply);
          if (reply.status !== 200) {
            assert.equal(reply.body?.code, 'invalid_parameters', reply.text);
            return;
          }
          const id = Number(reply.body?.data);
          const stored = await db
            .selectFrom('users')
            .innerJoin('user_accounts', 'user_accounts.user_id', 'users.id')
            .select(['users.name', 'user_accounts.password_hash'])
            .where('users.id', '=', id)
            .executeTakeFirstOrThrow();
          assert.equal(stored.name, name.trim());
          assert.equal(await passwordMatches(password, stored.password_hash), true);
        }),
        { numRuns: NUM_RUNS },
      );
    });

    test('afterwards the server still serves, and its log is clean JSON lines without the key', async () => {
      const reply = await call(server.url, {
        method: 'POST',
        headers: { apikey: key },
        body: { query: 'user', condition: 'add', parameters: userFields() },
      });
      assert.equal(reply.status, 200, reply.text);
      assertAlive(server);
      // Give the pipe a moment to deliver the last lines.
      await new Promise((resolve) => setTimeout(resolve, 100));
      assertCleanLog(server, secrets);
    });
  },
);
