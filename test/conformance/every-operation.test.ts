import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { SCOPES } from '../../src/domain.ts';
import { SERVICE_PATH } from '../../src/http/openapi/build-openapi-document.ts';
import type { Operation } from '../../src/operations/operation.ts';
import { OPERATIONS } from '../../src/operations/registry.ts';
import { describeEachDatabaseKind } from '../helpers/each-database.ts';
import { call } from '../helpers/http.ts';
import { type Json, makeConformance } from '../helpers/openapi-conformance.ts';
import { useTestServer } from '../helpers/test-server.ts';
import {
  addTicketsBeforeExamples,
  addTicketsForLookUps,
  addUsersBeforeExamples,
  addWebhooksBeforeExamples,
  dateUsersForExamples,
  EXAMPLE_WEBHOOK_KEY,
} from './example-data.ts';

/*
 * The registry is the list: every example of every operation, sent to the real server on every
 * kind of database, must get a success whose `data` the operation's own schema accepts and whose
 * envelope the OpenAPI document (as the server serves it) documents for that operation.
 */

const operations: readonly Operation[] = Object.values(OPERATIONS);
// Writes first: the look-ups' examples read what the writes' examples made.
const writes = operations.filter((operation) => operation.methods[0] !== 'GET');
const lookUps = operations.filter((operation) => operation.methods[0] === 'GET');

describeEachDatabaseKind('every example of every operation', (database) => {
  const server = useTestServer(() => ({
    database: database.url,
    env: { ...database.env, DESKGATE_WEBHOOK_ENCRYPTION_KEY: EXAMPLE_WEBHOOK_KEY },
    ownKey: database.osticket === undefined,
  }));
  /** A key that may call every operation: the server's own, or osTicket's write key. */
  const key = () => database.osticket?.writeKey.key ?? server.key;
  /** Tasks are agent-internal: their reads need the notes grant too (decision 322). */
  let notesKey = '';
  let conformance: ReturnType<typeof makeConformance>;

  before(async () => {
    const reply = await call(`${server.origin}/openapi.json`);
    assert.equal(reply.status, 200, reply.text);
    conformance = makeConformance(reply.body as unknown as Json);
    if (!database.osticket) {
      notesKey = (await server.createKey({ scopes: [...SCOPES], notes: true })).key;
    }
    await addUsersBeforeExamples(server, key());
    if (!database.osticket) await addTicketsBeforeExamples(server, key());
    // A webhook of `ticket.*` receives notes and tasks too: its key must read them (the notes grant).
    if (!database.osticket) await addWebhooksBeforeExamples(server, notesKey);
  });

  async function sendExample(operation: Operation, body: Record<string, unknown>): Promise<void> {
    const method = operation.methods[0] as string;
    const tasks = operation.name.startsWith('tasks/');
    const notes = tasks || operation.name.startsWith('webhook/');
    const reply = await server.request(body, { method, key: notes && notesKey ? notesKey : key() });
    if (database.osticket && tasks) {
      // No osTicket key has the notes grant until `deskgate osticket keys grant … --notes`.
      assert.equal(reply.status, 403, reply.text);
      assert.equal(reply.body?.code, 'insufficient_scope');
      conformance.conforms(SERVICE_PATH, method.toLowerCase(), reply);
      return;
    }
    if (
      database.osticket &&
      (operation.scope === 'admin' || operation.scope === 'webhooks:manage')
    ) {
      // No osTicket key ever has the admin scope (SPEC §8b); webhooks:manage only by a grant.
      assert.equal(reply.status, 403, reply.text);
      assert.equal(reply.body?.code, 'insufficient_scope');
      conformance.conforms(SERVICE_PATH, method.toLowerCase(), reply);
      return;
    }
    if (database.osticket && operation.errors.includes('requires_osticket_bridge')) {
      // osTicket's own code writes its tickets: without the bridge, a documented 501.
      assert.equal(reply.status, 501, reply.text);
      assert.equal(reply.body?.code, 'requires_osticket_bridge');
      conformance.conforms(SERVICE_PATH, method.toLowerCase(), reply);
      return;
    }
    assert.equal(
      reply.status,
      200,
      `${method} ${JSON.stringify(body)} → ${reply.status} ${reply.text}`,
    );
    assert.equal(reply.body?.status, 'Success');
    const data = reply.body?.data;
    const parsed = operation.response.safeParse(data);
    assert.ok(parsed.success, `${operation.name}: ${reply.text}\n${parsed.error?.message}`);
    if (data !== null && typeof data === 'object' && 'total' in data) {
      assert.ok(
        Number(data.total) > 0,
        `${operation.name}: the example found nothing: ${reply.text}`,
      );
    }
    conformance.conforms(SERVICE_PATH, method.toLowerCase(), reply);
    conformance.conformsToOperation(SERVICE_PATH, method.toLowerCase(), operation.name, reply);
  }

  describe('writes', () => {
    for (const operation of writes) {
      for (const example of operation.examples) {
        test(`${operation.name} ${example.name}`, () => sendExample(operation, example.body));
      }
    }
  });

  describe('look-ups', () => {
    before(async () => {
      await dateUsersForExamples(database);
      await addTicketsForLookUps(server, database);
    });
    for (const operation of lookUps) {
      for (const example of operation.examples) {
        test(`${operation.name} ${example.name}`, () => sendExample(operation, example.body));
      }
    }
  });
});

test('every operation has at least one example to send', () => {
  for (const operation of operations) {
    assert.ok(operation.examples.length > 0, operation.name);
  }
  assert.ok(operations.length > 0);
});
