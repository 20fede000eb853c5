import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import type { OsticketBrowser } from '../../../test/helpers/osticket-browser.ts';
import {
  assertRowsLikePanel,
  type Row,
  textBody,
} from '../../../test/helpers/osticket-ticket-rows.ts';
import {
  TICKET_INPUT as input,
  useOsticketTicketWrites,
  useTimingOutServer,
} from '../../../test/helpers/osticket-ticket-writes.ts';
import { REAL_OSTICKET_SKIP, type RealOsticket } from '../../../test/helpers/real-osticket.ts';

// osTicket mode writes a ticket by osTicket's own code (its API, deskgate's bridge plugin), so
// these run on a real osTicket; ticket/add on deskgate's three databases is in ticket-add.test.ts.
describe("ticket/add in osTicket mode, by a real osTicket 1.18.1's own code", {
  skip: REAL_OSTICKET_SKIP,
}, () => {
  let osticket: RealOsticket;
  let admin: OsticketBrowser;
  let userId: number;
  let slaId: number;
  let waitingStatus: number;
  /** deskgate's own osTicket key, bound to deskgate's address (127.0.0.1 here). */
  let deskgateKey: string;

  const writes = useOsticketTicketWrites();
  const { deskgate, call, openInPanel } = writes;
  const timingOut = useTimingOutServer(writes);
  before(() => {
    ({ osticket, admin, userId, slaId, waitingStatus, deskgateKey } = writes.shared);
  });

  let stockTicket: number;
  let stockPanelTicket: number;
  let pluginTicket: number;

  test("ticket/add fitting osTicket's choices goes through its stock api/tickets.json", async () => {
    const reply = await call(deskgate, 'add', { ...input, user_id: userId });
    assert.equal(reply.status, 200, JSON.stringify(reply.body));
    stockTicket = Number(reply.body?.data);
    const [row] = await osticket.query<Row>(
      'SELECT number, user_id, topic_id, dept_id, sla_id, status_id, source, ip_address FROM ost_ticket WHERE ticket_id = ?',
      [stockTicket],
    );
    assert.equal(reply.headers['x-ticket-number'], row?.number);
    assert.deepEqual(
      { ...row, number: undefined },
      {
        number: undefined,
        user_id: userId,
        topic_id: 1,
        dept_id: 1,
        sla_id: 1,
        status_id: 1,
        source: 'API',
        ip_address: '127.0.0.1',
      },
    );
    // No pass-through fields: osTicket logged no "Unexpected Data" (which would hold the key).
    const unexpected = await osticket.query<Row>(
      `SELECT log FROM ost_syslog WHERE title LIKE '%Unexpected%' OR log LIKE ?`,
      [`%${deskgateKey}%`],
    );
    assert.deepEqual(unexpected, []);
  });

  test("its rows are the staff panel's for the same input, but for the plain-text body and who opened it", async () => {
    stockPanelTicket = await openInPanel({});
    assert.notEqual(stockPanelTicket, stockTicket);
    // An API ticket is opened by the user ("SYSTEM", uid_type U) and mails no recipient list;
    // the panel's by the agent (tickets.md §3.1). `uid` is 1 on both: user 1, agent 1.
    await assertRowsLikePanel(osticket, stockTicket, stockPanelTicket, [
      ...textBody(0),
      'entries[0].recipients',
      'events[0].staff_id',
      'events[0].username',
      'events[0].uid_type',
      'search[0].content',
    ]);
  });

  test("osTicket's own getSLADueDate(true) equals the stored est_duedate (business hours)", async () => {
    const [row] = await osticket.query<{ est_duedate: string | null }>(
      'SELECT est_duedate FROM ost_ticket WHERE ticket_id = ?',
      [stockTicket],
    );
    assert.ok(row?.est_duedate);
    const recomputed = await osticket.runPhp(
      `echo Ticket::lookup(${stockTicket})->getSLADueDate(true);`,
    );
    assert.equal(recomputed, row.est_duedate);
  });

  test('the staff view shows its subject and priority; the client portal lists it for its user', async () => {
    const page = await admin.get(`scp/tickets.php?id=${stockTicket}`);
    assert.match(page.text, /Printer on fire/);
    const [priority] = await osticket.query<{ priority_desc: string }>(
      'SELECT priority_desc FROM ost_ticket_priority WHERE priority_id = ?',
      [input.priority_id],
    );
    assert.match(page.text, new RegExp(`>\\s*${priority?.priority_desc}\\s*<`));
    const client = osticket.browser();
    await client.signInClient('tess@example.net', 'Portal-Pass-1');
    const [ticket] = await osticket.query<{ number: string }>(
      'SELECT number FROM ost_ticket WHERE ticket_id = ?',
      [stockTicket],
    );
    const list = await client.get('tickets.php');
    assert.match(list.text, new RegExp(`${ticket?.number}[\\s\\S]*Printer on fire`));
  });

  test('ticket/add with a department, SLA and status osTicket would not choose goes through the plugin, like the panel', async () => {
    const reply = await call(deskgate, 'add', {
      ...input,
      user_id: userId,
      dept_id: 2,
      sla_id: slaId,
      status_id: waitingStatus,
    });
    assert.equal(reply.status, 200, JSON.stringify(reply.body));
    pluginTicket = Number(reply.body?.data);
    const [row] = await osticket.query<Row>(
      'SELECT dept_id, sla_id, status_id FROM ost_ticket WHERE ticket_id = ?',
      [pluginTicket],
    );
    assert.deepEqual(row, { dept_id: 2, sla_id: slaId, status_id: waitingStatus });
    const panel = await openInPanel({
      deptId: '2',
      slaId: String(slaId),
      statusId: String(waitingStatus),
    });
    await assertRowsLikePanel(osticket, pluginTicket, panel, [
      ...textBody(0),
      'entries[0].recipients',
      'search[0].content',
    ]);
    const due = await osticket.runPhp(`echo Ticket::lookup(${pluginTicket})->getSLADueDate(true);`);
    const [stored] = await osticket.query<{ est_duedate: string }>(
      'SELECT est_duedate FROM ost_ticket WHERE ticket_id = ?',
      [pluginTicket],
    );
    assert.equal(due, stored?.est_duedate);
  });

  test('with an Idempotency-Key a retry replays; after a timeout it finds the ticket osTicket made instead of opening a second', async () => {
    const key = { 'idempotency-key': 'add-1' };
    const first = await call(deskgate, 'add', { ...input, user_id: userId }, key);
    const again = await call(deskgate, 'add', { ...input, user_id: userId }, key);
    assert.equal(first.status, 200);
    assert.deepEqual(again.body?.data, first.body?.data);
    assert.equal(again.headers['x-ticket-number'], first.headers['x-ticket-number']);

    const tickets = async () =>
      Number((await osticket.query<{ n: number }>('SELECT COUNT(*) n FROM ost_ticket'))[0]?.n ?? 0);
    const count = await tickets();
    const lost = { 'idempotency-key': 'lost-answer' };
    const body = { ...input, title: 'Answer lost', user_id: userId };
    const timedOut = await call(timingOut, 'add', body, lost);
    assert.deepEqual([timedOut.status, timedOut.body?.code], [504, 'osticket_timeout']);
    assert.equal(await tickets(), count + 1, 'osTicket made the ticket; deskgate never heard');
    const inFlight = await call(timingOut, 'add', body, lost);
    assert.deepEqual([inFlight.status, inFlight.body?.code], [409, 'write_in_progress']);
    assert.ok(Number(inFlight.headers['retry-after']) > 0);
    // Time passes beyond the timeout and osTicket's own limit (the claim made a minute earlier).
    await osticket.query(
      `UPDATE deskgate_idempotency_keys SET created_at = created_at - INTERVAL 2 MINUTE WHERE idempotency_key = 'lost-answer'`,
    );
    const recovered = await call(timingOut, 'add', body, lost);
    assert.equal(recovered.status, 200, JSON.stringify(recovered.body));
    const [made] = await osticket.query<{ id: number; number: string }>(
      `SELECT t.ticket_id id, t.number FROM ost_ticket t JOIN ost_ticket__cdata c USING (ticket_id)
        WHERE c.subject = 'Answer lost'`,
    );
    assert.equal(recovered.body?.data, String(made?.id));
    assert.equal(recovered.headers['x-ticket-number'], made?.number);
    assert.equal(await tickets(), count + 1, 'no second ticket');
    const replayed = await call(timingOut, 'add', body, lost);
    assert.equal(replayed.body?.data, String(made?.id));
  });
});
