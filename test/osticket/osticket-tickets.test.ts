import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { tasks } from '../../src/data/tasks/tasks.ts';
import { toTaskView } from '../../src/operations/views/ticket-view.ts';
import type { Reply } from '../helpers/http.ts';
import { useTestServer } from '../helpers/test-server.ts';
import { ticketAddBody } from '../helpers/tickets.ts';
import {
  createOsticketDatabase,
  OSTICKET_SKIP,
  type OsticketDatabase,
  osticketEnv,
} from './osticket-database.ts';
import {
  insertOsticketTask,
  insertOsticketTicket,
  insertTicketLists,
} from './osticket-ticket-rows.ts';

interface Data {
  total: number;
  tickets?: Record<string, unknown>[];
  tasks?: Record<string, string>[];
}

function dataOf(reply: Reply): Data {
  assert.equal(reply.status, 200, reply.text);
  return reply.body?.data as Data;
}

const CREATED = '2026-11-25 08:37:00';
const REPLIED = '2026-11-25 09:00:00';

describe('ticket and task reads in osTicket mode', { skip: OSTICKET_SKIP }, () => {
  let db: OsticketDatabase;
  let userId: number;
  let ticketId: number;
  /** A ticket the original PHP service wrote: no form answers, `lastupdate` NULL, number = ticket 1's id. */
  let originalsId: number;
  let taskId: number;

  before(async () => {
    db = await createOsticketDatabase();
    await db.query("SET SESSION sql_mode = ''");
    await insertTicketLists(db);
    userId = await db.insert(
      `INSERT INTO ost_user (org_id, default_email_id, status, name, created, updated)
       VALUES (0, 0, 0, 'Tess Ticket', NOW(), NOW())`,
    );
    ticketId = await insertOsticketTicket(db, {
      userId,
      number: '304366',
      statusId: 1,
      created: CREATED,
      replied: REPLIED,
    });
    originalsId = await db.insert(
      `INSERT INTO ost_ticket (number, user_id, status_id, dept_id, sla_id, topic_id, ip_address,
         source, lastupdate, created, updated)
       VALUES (?, ?, 3, 1, 1, 1, '0', 'API', NULL, '2026-11-26 10:00:00', '2026-11-26 10:00:00')`,
      [String(ticketId), userId],
    );
    await db.query(
      `INSERT INTO ost_ticket__cdata (ticket_id, subject, priority) VALUES (?, 'From the original', '2')`,
      [originalsId],
    );
    // A task whose id is ticket 1's id, with a thread of its own: the original mixed it in.
    taskId = await insertOsticketTask(db, {
      id: ticketId,
      ticketId,
      number: '1',
      title: 'Replace toner',
      created: REPLIED,
    });
  });

  const server = useTestServer(() => ({
    database: db.url,
    env: osticketEnv(db),
    ownKey: false,
  }));

  after(async () => {
    await server.stop();
    await db?.drop();
  });

  const request = (body: Record<string, unknown>, method = 'GET') =>
    server.request(body, { key: db.writeKey.key, method });

  test('ticket/specific: the ticket’s own columns, subject and priority from the form, M and R only', async () => {
    const data = dataOf(
      await request({ query: 'ticket', condition: 'specific', parameters: { id: ticketId } }),
    );
    const ticket = data.tickets?.[0] ?? {};
    assert.equal(ticket.number, '304366');
    assert.equal(ticket.user_id, String(userId));
    assert.equal(ticket.staff_id, '1');
    assert.equal(ticket.created, CREATED);
    assert.equal(ticket.updated, REPLIED);
    assert.equal(ticket.est_duedate, '2026-11-27 22:00:00');
    assert.equal(ticket.subject, 'Printer on fire');
    assert.equal(ticket.priority, 'High');
    assert.equal(ticket.priority_id, '3');
    const entries = ticket.entries as Record<string, string>[];
    assert.deepEqual(
      entries.map((e) => [e.entry_type, e.entry_poster, e.entry_body]),
      [
        ['M', 'Tess Ticket', '<p>It is on fire.</p>'],
        ['R', 'Alex Agent', '<p>On my way.</p>'],
      ],
      'no internal note, no task entry',
    );
    assert.equal(entries[0]?.entry_created, CREATED);
  });

  test('a ticket without form answers takes subject and priority from ticket__cdata', async () => {
    const data = dataOf(
      await request({ query: 'ticket', condition: 'specific', parameters: { id: originalsId } }),
    );
    const ticket = data.tickets?.[0] ?? {};
    assert.equal(ticket.subject, 'From the original');
    assert.equal(ticket.priority_id, '2');
    assert.equal(ticket.priority, 'Normal');
    assert.equal(ticket.lastupdate, null);
    assert.deepEqual(ticket.entries, []);
  });

  test('by number never reads the value as an id', async () => {
    const byNumber = dataOf(
      await request({
        query: 'ticket',
        condition: 'specific',
        parameters: { number: String(ticketId) },
      }),
    );
    assert.equal(byNumber.tickets?.[0]?.ticket_id, String(originalsId));
  });

  test('ticket/all by creation date and by status: one element per ticket', async () => {
    const all = dataOf(
      await request({
        query: 'ticket',
        condition: 'all',
        sort: 'creationDate',
        parameters: { start_date: '2026-11-25', end_date: '2026-11-26' },
      }),
    );
    assert.deepEqual(
      all.tickets?.map((t) => t.ticket_id),
      [String(ticketId), String(originalsId)],
    );
    const closed = dataOf(
      await request({
        query: 'ticket',
        condition: 'all',
        sort: 'status',
        parameters: { status: 3 },
      }),
    );
    assert.deepEqual(
      closed.tickets?.map((t) => t.ticket_id),
      [String(originalsId)],
    );
    const updated = dataOf(
      await request({
        query: 'ticket',
        condition: 'all',
        sort: 'lastUpdateDate',
        parameters: { start_date: '2026-11-25', end_date: '2026-11-25', limit: 10 },
      }),
    );
    assert.deepEqual(
      updated.tickets?.map((t) => t.ticket_id),
      [String(ticketId)],
    );
  });

  test('tasks: the task’s own id, title from task__cdata, description from its own thread', async () => {
    // Over HTTP tasks need the notes grant, which no osTicket key has yet (decision 322).
    for (const [condition, sort, parameters] of [
      ['specific', undefined, { id: taskId }],
      ['all', 'byTicket', { ticket_id: ticketId }],
    ] as const) {
      const refused = await request({ query: 'tasks', condition, sort, parameters });
      assert.equal(refused.status, 403, refused.text);
      assert.equal(refused.body?.code, 'insufficient_scope');
    }
    const task = await server.store.data(tasks).findTask(taskId);
    assert.deepEqual(task && toTaskView(task), {
      task_id: String(taskId),
      number: '1',
      ticket_id: String(ticketId),
      dept_id: '1',
      staff_id: '1',
      title: 'Replace toner',
      description: 'Floor 2 printer',
      duedate: null,
      closed: null,
      created: REPLIED,
      updated: REPLIED,
    });
    const byTicket = await server.store.data(tasks).listTasks({
      from: undefined,
      to: undefined,
      after: undefined,
      ticketId,
      limit: 10,
    });
    assert.equal(byTicket.length, 1);
  });

  test('ticket writes answer 501 requires_osticket_bridge and write nothing', async () => {
    const [before] = await db.query<{ n: number }>('SELECT COUNT(*) AS n FROM ost_thread_entry');
    for (const [condition, parameters] of [
      ['add', ticketAddBody(userId).parameters],
      ['reply', { ticket_id: ticketId, body: 'x', staff_id: 1 }],
      ['close', { ticket_id: ticketId, staff_id: 1, status_id: 3 }],
      ['note', { ticket_id: ticketId, staff_id: 1, body: 'x' }],
      ['status', { ticket_id: ticketId, staff_id: 1, status_id: 3 }],
      ['assign', { ticket_id: ticketId, staff_id: 1, agent_id: 1 }],
      ['transfer', { ticket_id: ticketId, staff_id: 1, dept_id: 2 }],
      ['update', { ticket_id: ticketId, staff_id: 1, priority_id: 4 }],
    ] as const) {
      const reply = await request({ query: 'ticket', condition, parameters }, 'POST');
      assert.equal(reply.status, 501, reply.text);
      assert.equal(reply.body?.code, 'requires_osticket_bridge');
      assert.match(String(reply.body?.data), /DESKGATE_OSTICKET_URL/);
    }
    const [after] = await db.query<{ n: number }>('SELECT COUNT(*) AS n FROM ost_thread_entry');
    assert.deepEqual(after, before);
    const [ticket] = await db.query<{ status_id: number }>(
      'SELECT status_id FROM ost_ticket WHERE ticket_id = ?',
      [ticketId],
    );
    assert.equal(Number(ticket?.status_id), 1);
  });

  for (const [condition, sort, parameters, field] of [
    ['close', undefined, { ticket_id: '5 OR 1=1', staff_id: 1, status_id: 3 }, 'ticket_id'],
    ['specific', undefined, { id: "1' OR '1'='1" }, 'id'],
    ['all', 'status', { status: '0 OR 1=1' }, 'status'],
  ] as const) {
    test(`ticket/${condition} ${JSON.stringify(parameters)} → 400, no row changed`, async () => {
      const [before] = await db.query<{ n: number }>(
        'SELECT COUNT(*) AS n FROM ost_ticket WHERE status_id = 3',
      );
      const reply = await request(
        { query: 'ticket', condition, ...(sort ? { sort } : {}), parameters },
        condition === 'close' ? 'POST' : 'GET',
      );
      assert.equal(reply.status, 400, reply.text);
      assert.deepEqual(
        reply.body?.errors?.map((e) => e.field),
        [`parameters.${field}`],
      );
      const [after] = await db.query<{ n: number }>(
        'SELECT COUNT(*) AS n FROM ost_ticket WHERE status_id = 3',
      );
      assert.deepEqual(after, before);
    });
  }

  test('only a key with can_create_tickets has tickets:read', async () => {
    const reply = await server.request(
      { query: 'ticket', condition: 'specific', parameters: { id: ticketId } },
      { key: db.readKey.key },
    );
    assert.equal(reply.status, 403, reply.text);
    assert.equal(reply.body?.code, 'insufficient_scope');
  });

  test('tasks/all ticket_id "1 OR 1=1" → 400', async () => {
    const reply = await request({
      query: 'tasks',
      condition: 'all',
      sort: 'byTicket',
      parameters: { ticket_id: '1 OR 1=1' },
    });
    assert.equal(reply.status, 400, reply.text);
  });
});
