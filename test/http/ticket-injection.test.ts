import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { openDatabase } from '../../src/data/open-database.ts';
import { tasks } from '../../src/data/tasks/tasks.ts';
import type { OwnTicketTables } from '../../src/data/tickets/own-tickets.ts';
import { tickets } from '../../src/data/tickets/tickets.ts';
import { describeEachDatabase } from '../helpers/each-database.ts';
import { useTestServer } from '../helpers/test-server.ts';
import { addAgent, addUser, ticketAddBody } from '../helpers/tickets.ts';

/**
 * The payloads that broke the original's ticket and task operations (tickets.md §2.1, §2.2),
 * each sent where it did harm: every one is refused or stored as text, never run as SQL.
 */
const ID_PAYLOADS: [operation: string, field: string, payload: string][] = [
  ['ticket/close', 'ticket_id', '5 OR 1=1'],
  ['ticket/close', 'status_id', '3 OR 1=1'],
  ['ticket/reply', 'ticket_id', '5 OR 1=1'],
  ['ticket/reply', 'staff_id', '1; DELETE FROM tickets'],
  ['ticket/add', 'priority_id', "3), (0,'API9',1"],
  ['ticket/add', 'user_id', '1 UNION SELECT key_hash FROM api_keys'],
  ['ticket/add', 'dept_id', "1' OR '1'='1"],
  ['ticket/specific', 'id', "1' OR '1'='1"],
  ['ticket/all', 'status', '0 OR 1=1'],
  ['ticket/all', 'start_date', "2026-01-01' OR '1'='1"],
  ['tasks/specific', 'id', '1 UNION SELECT key_hash, 1, 1, 1 FROM api_keys'],
  ['tasks/all', 'ticket_id', '1 OR 1=1'],
];

const TEXT_PAYLOADS = [
  "'); DELETE FROM tickets; --",
  "x' OR '1'='1",
  '1 UNION SELECT key_hash FROM api_keys',
];

const TABLES = [
  'tickets',
  'ticket_entries',
  'ticket_events',
  'tasks',
  'api_keys',
  'users',
] as const;

describeEachDatabase('ticket and task injection payloads', (database) => {
  const server = useTestServer({ database });
  let userId: number;
  let agentId: number;
  let ticketId: number;

  async function counts(): Promise<Record<string, number>> {
    const { db } = openDatabase<
      OwnTicketTables & { api_keys: { id: number }; users: { id: number } }
    >(database.url);
    try {
      const result: Record<string, number> = {};
      for (const table of TABLES) {
        const row = await db
          .selectFrom(table)
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow();
        result[table] = Number(row.n);
      }
      const statuses = await db.selectFrom('tickets').select(['id', 'status_id']).execute();
      result.closed = statuses.filter((row) => Number(row.status_id) !== 1).length;
      return result;
    } finally {
      await db.destroy();
    }
  }

  before(async () => {
    userId = await addUser(server.store);
    agentId = await addAgent(server.store);
    for (let i = 0; i < 6; i++) {
      const reply = await server.request(ticketAddBody(userId), { method: 'POST' });
      ticketId = Number(reply.body?.data);
    }
    await server.store.data(tasks).createTask({
      ticketId,
      deptId: 1,
      staffId: 0,
      title: 'Replace toner',
      description: '',
    });
  });

  function bodyFor(operation: string, field: string, payload: string): Record<string, unknown> {
    const [query, condition] = operation.split('/');
    const valid: Record<string, Record<string, unknown>> = {
      'ticket/close': { ticket_id: ticketId, staff_id: agentId, status_id: 3 },
      'ticket/reply': { ticket_id: ticketId, staff_id: agentId, body: 'Hello' },
      'ticket/add': ticketAddBody(userId).parameters as Record<string, unknown>,
      'ticket/specific': { id: ticketId },
      'ticket/all': { status: 0, start_date: '2026-01-01', end_date: '2999-12-31' },
      'tasks/specific': { id: 1 },
      'tasks/all': { ticket_id: ticketId },
    };
    const sort =
      operation === 'ticket/all'
        ? 'statusByDate'
        : operation === 'tasks/all'
          ? 'byTicket'
          : undefined;
    return {
      query,
      condition,
      ...(sort ? { sort } : {}),
      parameters: { ...valid[operation], [field]: payload },
    };
  }

  for (const [operation, field, payload] of ID_PAYLOADS) {
    test(`${operation} ${field} ${JSON.stringify(payload)} → 400 naming the field, no row changed`, async () => {
      const before = await counts();
      const write = ['ticket/close', 'ticket/reply', 'ticket/add'].includes(operation);
      const reply = await server.request(bodyFor(operation, field, payload), {
        method: write ? 'POST' : 'GET',
      });
      assert.equal(reply.status, 400, reply.text);
      assert.equal(reply.body?.code, 'invalid_parameters');
      assert.deepEqual(
        reply.body?.errors?.map((e) => e.field),
        [`parameters.${field}`],
      );
      assert.deepEqual(await counts(), before);
    });
  }

  for (const payload of TEXT_PAYLOADS) {
    test(`ticket/add title and body ${JSON.stringify(payload)} are stored as text, one ticket more`, async () => {
      const before = await counts();
      const reply = await server.request(
        ticketAddBody(userId, { title: payload, subject: payload }),
        { method: 'POST' },
      );
      assert.equal(reply.status, 200, reply.text);
      const after = await counts();
      assert.deepEqual(after, {
        ...before,
        tickets: (before.tickets ?? 0) + 1,
        ticket_entries: (before.ticket_entries ?? 0) + 1,
        ticket_events: (before.ticket_events ?? 0) + 1,
      });
      const ticket = await server.store
        .data(tickets)
        .findTicket({ id: Number(reply.body?.data) }, { notes: false });
      assert.equal(ticket?.subject, payload);
      assert.equal(ticket?.entries[0]?.body, payload.replaceAll("'", '&#039;'));
    });
  }
});
