import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { useTestServer } from '../helpers/test-server.ts';
import { ticketAddBody } from '../helpers/tickets.ts';
import {
  createOsticketDatabase,
  OSTICKET_SKIP,
  type OsticketDatabase,
  osticketEnv,
} from './osticket-database.ts';
import { insertOsticketTicket, insertTicketLists } from './osticket-ticket-rows.ts';

/**
 * Ticket writes in osTicket mode without the bridge plugin: refused, nothing written. One suite
 * for the eight writes (one database, not eight); the reads' osTicket-mode tests are in their
 * operations' folders (src/operations/ticket-*, tasks-*), on all four kinds.
 */
describe('ticket writes in osTicket mode without the bridge', { skip: OSTICKET_SKIP }, () => {
  let db: OsticketDatabase;
  let userId: number;
  let ticketId: number;

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
      created: '2026-11-25 08:37:00',
      replied: '2026-11-25 09:00:00',
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

  test('ticket/close {"ticket_id":"5 OR 1=1","staff_id":1,"status_id":3} → 400, no row changed', async () => {
    const [before] = await db.query<{ n: number }>(
      'SELECT COUNT(*) AS n FROM ost_ticket WHERE status_id = 3',
    );
    const reply = await request(
      {
        query: 'ticket',
        condition: 'close',
        parameters: { ticket_id: '5 OR 1=1', staff_id: 1, status_id: 3 },
      },
      'POST',
    );
    assert.equal(reply.status, 400, reply.text);
    assert.deepEqual(
      reply.body?.errors?.map((e) => e.field),
      ['parameters.ticket_id'],
    );
    const [after] = await db.query<{ n: number }>(
      'SELECT COUNT(*) AS n FROM ost_ticket WHERE status_id = 3',
    );
    assert.deepEqual(after, before);
  });
});
