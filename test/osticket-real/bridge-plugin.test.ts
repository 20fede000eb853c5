import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { OsticketBrowser } from '../helpers/osticket-browser.ts';
import {
  addOsticketUser,
  addUnusualChoices,
  assertRowsLikePanel as assertRows,
  assertTextReply,
  BRIDGE_PLUGIN,
  enableBridgePlugin,
  type Row,
  replyInPanel,
  ticketRows as rowsOf,
  textBody,
  ticketCounts,
} from '../helpers/osticket-ticket-rows.ts';
import {
  REAL_OSTICKET_SKIP,
  type RealOsticket,
  startRealOsticket,
} from '../helpers/real-osticket.ts';
import { type SmtpSink, startSmtpSink } from '../helpers/smtp-sink.ts';

const skip = REAL_OSTICKET_SKIP;

interface BridgeAnswer {
  status: number;
  body: {
    ticket_id?: number;
    number?: string;
    entry_id?: number | null;
    error?: string;
    field?: string;
  };
}

describe('the deskgate bridge plugin in a real osTicket 1.18.1', { skip }, () => {
  let osticket: RealOsticket;
  let sink: SmtpSink;
  let admin: OsticketBrowser;
  let userId: number;
  let slaId: number;
  let otherKey: { id: number; key: string };
  let inactiveAgent: number;
  let readOnlyAgent: number;
  let waitingStatus: number;

  const bridge = async (
    route: string,
    body: unknown,
    key = osticket.apiKey.key,
  ): Promise<BridgeAnswer> => {
    const response = await fetch(`${osticket.baseUrl}api/deskgate/${route}`, {
      method: 'POST',
      headers: { 'x-api-key': key, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    assert.equal(response.headers.get('content-type'), 'application/json; charset=UTF-8');
    return { status: response.status, body: (await response.json()) as BridgeAnswer['body'] };
  };

  const ticketRows = (ticketId: number) => rowsOf(osticket, ticketId);

  /** After the reply (and the close, whose note is HTML on both sides): both bodies. */
  const AFTER_REPLY = [
    ...textBody(0),
    'entries[0].recipients',
    ...textBody(1),
    'search[0].content',
    'search[1].content',
  ];

  /** The two tickets' rows differ in exactly `expected` (see textBody). */
  const assertRowsLikePanel = (expected: string[]) =>
    assertRows(osticket, bridgeTicket, panelTicket, expected);

  const counts = () => ticketCounts(osticket);

  before(async () => {
    sink = await startSmtpSink();
    osticket = await startRealOsticket({ plugins: [BRIDGE_PLUGIN] });
    await osticket.routeMailTo(sink.port);
    admin = await osticket.staffBrowser();

    await enableBridgePlugin(osticket, admin, [osticket.apiKey.id]);

    // A user (through osTicket's API), a 4-hour SLA on the 24/7 schedule, a key not on the
    // allow-list, an inactive agent and an agent whose role may not reply or close.
    userId = await addOsticketUser(osticket, 'tess@example.net', 'Tess Ticket');
    ({ slaId, waitingStatus } = await addUnusualChoices(osticket));
    const otherKeyText = 'A'.repeat(32);
    otherKey = {
      key: otherKeyText,
      id: await osticket.insert(
        `INSERT INTO ost_api_key (isactive, ipaddr, apikey, can_create_tickets, can_exec_cron, notes, updated, created)
         VALUES (1, '127.0.0.1', ?, 1, 0, 'not allowed', NOW(), NOW())`,
        [otherKeyText],
      ),
    };
    const agent = (username: string, active: number, roleId: number) =>
      osticket.insert(
        `INSERT INTO ost_staff (dept_id, role_id, username, firstname, lastname, email, signature, isactive, created, updated)
         VALUES (2, ?, ?, 'Test', ?, ?, '', ?, NOW(), NOW())`,
        [roleId, username, username, `${username}@deskgate.test`, active],
      );
    const readOnlyRole = await osticket.insert(
      `INSERT INTO ost_role (flags, name, permissions, notes, created, updated)
       VALUES (1, 'Look only', '{"ticket.create":1}', '', NOW(), NOW())`,
    );
    inactiveAgent = await agent('inactive', 0, 1);
    readOnlyAgent = await agent('lookonly', 1, readOnlyRole);
  });
  after(async () => {
    await osticket?.stop();
    await sink?.stop();
  });

  const createInput = () => ({
    subject: 'Printer on fire',
    message: 'It smokes.\nPlease come.',
    topicId: 1,
    deptId: 2,
    slaId,
    statusId: waitingStatus,
    priorityId: 4,
  });

  let bridgeTicket: number;
  let panelTicket: number;

  test('creates a ticket with a department, SLA, status and priority osTicket would not choose', async () => {
    const input = createInput();
    const answer = await bridge('tickets.json', {
      staff_id: 1,
      user_id: userId,
      subject: input.subject,
      message: input.message,
      topic_id: input.topicId,
      dept_id: input.deptId,
      sla_id: input.slaId,
      status_id: input.statusId,
      priority_id: input.priorityId,
    });
    assert.equal(answer.status, 201, JSON.stringify(answer.body));
    bridgeTicket = answer.body.ticket_id as number;
    const [row] = await osticket.query<Row>(
      'SELECT number, dept_id, sla_id, status_id, topic_id, user_id, source, est_duedate FROM ost_ticket WHERE ticket_id = ?',
      [bridgeTicket],
    );
    assert.deepEqual(
      { ...row, est_duedate: undefined },
      {
        number: answer.body.number,
        dept_id: 2,
        sla_id: slaId,
        status_id: waitingStatus,
        topic_id: 1,
        user_id: userId,
        source: 'API',
        est_duedate: undefined,
      },
    );
    const [entry] = await osticket.query<Row>(
      'SELECT id, type, format, body FROM ost_thread_entry WHERE id = ?',
      [answer.body.entry_id],
    );
    assert.equal(entry?.type, 'M');
    assert.equal(entry?.format, 'text');
  });

  test("osTicket's own getSLADueDate(true) equals the stored est_duedate (4 h on 24/7)", async () => {
    const [row] = await osticket.query<{ est_duedate: string; due: string; created: string }>(
      'SELECT est_duedate, created + INTERVAL 4 HOUR AS due, created FROM ost_ticket WHERE ticket_id = ?',
      [bridgeTicket],
    );
    assert.ok(row);
    const recomputed = await osticket.runPhp(
      `echo Ticket::lookup(${bridgeTicket})->getSLADueDate(true);`,
    );
    assert.equal(recomputed, row.est_duedate);
    // 4 hours after creation; osTicket's business-hours arithmetic over its 24/7 schedule counts
    // one second more when they cross midnight (its day ends at 23:59:59).
    const apart = Date.parse(`${row.est_duedate}Z`) - Date.parse(`${row.due}Z`);
    const crossesMidnight = row.created.slice(0, 10) !== row.due.slice(0, 10);
    assert.ok(
      apart === 0 || (crossesMidnight && apart === 1000),
      `${row.est_duedate} vs ${row.due}`,
    );
  });

  test("the rows equal the rows of osTicket's staff panel for the same input, but for the body's format", async () => {
    const input = createInput();
    await admin.get('scp/tickets.php?a=open');
    const page = await admin.postForm('scp/tickets.php?a=open', {
      a: 'open',
      do: 'create',
      uid: String(userId),
      source: 'API',
      topicId: String(input.topicId),
      deptId: String(input.deptId),
      slaId: String(input.slaId),
      statusId: String(input.statusId),
      priority: String(input.priorityId),
      subject: input.subject,
      message: 'It smokes.<br />Please come.',
      'reply-to': 'all',
    });
    const [latest] = await osticket.query<{ ticket_id: number }>(
      'SELECT MAX(ticket_id) AS ticket_id FROM ost_ticket',
    );
    panelTicket = latest?.ticket_id as number;
    assert.notEqual(panelTicket, bridgeTicket, page.text.slice(0, 300));
    await assertRowsLikePanel([...textBody(0), 'entries[0].recipients', 'search[0].content']);
  });

  test('a reply is posted as the agent, mailed to the user, with the rows of the panel’s reply', async () => {
    const mailsBefore = sink.messages.length;
    const answer = await bridge('reply.json', {
      staff_id: 1,
      ticket_id: bridgeTicket,
      message: 'We are on it <b>now</b>.',
    });
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    await assertTextReply(osticket, sink, mailsBefore, answer.body.entry_id as number, {
      body: 'We are on it &lt;b&gt;now&lt;/b&gt;.',
      to: 'tess@example.net',
    });

    await replyInPanel(admin, panelTicket, 'We are on it &lt;b&gt;now&lt;/b&gt;.');
    await assertRowsLikePanel(AFTER_REPLY);
  });

  // Issue 32: osTicket's Staff::getRole falls back to a create-only role in any department.
  test('an agent opens tickets only in a department it has a real role in (no getRole fallback)', async () => {
    const before = await counts();
    // lookonly's one role is in department 2 (Sales); department 1 (Support) it has none in.
    const elsewhere = await bridge('tickets.json', {
      staff_id: readOnlyAgent,
      user_id: userId,
      subject: 'Not my department',
      message: 'M',
      dept_id: 1,
    });
    assert.deepEqual([elsewhere.status, elsewhere.body.error], [403, 'forbidden']);
    assert.deepEqual(await counts(), before, 'nothing written');
    const own = await bridge('tickets.json', {
      staff_id: readOnlyAgent,
      user_id: userId,
      subject: 'My department',
      message: 'M',
      dept_id: 2,
    });
    assert.equal(own.status, 201, JSON.stringify(own.body));
  });

  test('refusals write nothing: wrong key, key not allowed, inactive agent, agent without permission', async () => {
    const before = await counts();
    const reply = { staff_id: 1, ticket_id: bridgeTicket, message: 'Nope' };
    const wrongKey = await bridge('reply.json', reply, 'F'.repeat(32));
    assert.equal(wrongKey.status, 401);
    const notAllowed = await bridge('reply.json', reply, otherKey.key);
    assert.deepEqual([notAllowed.status, notAllowed.body.error], [403, 'key_not_allowed']);
    const inactive = await bridge('reply.json', { ...reply, staff_id: inactiveAgent });
    assert.deepEqual([inactive.status, inactive.body.error], [403, 'agent_inactive']);
    const lookOnly = await bridge('reply.json', { ...reply, staff_id: readOnlyAgent });
    assert.deepEqual([lookOnly.status, lookOnly.body.error], [403, 'forbidden']);
    const lookOnlyClose = await bridge('close.json', {
      staff_id: readOnlyAgent,
      ticket_id: bridgeTicket,
    });
    assert.deepEqual([lookOnlyClose.status, lookOnlyClose.body.error], [403, 'forbidden']);
    const inactiveCreate = await bridge('tickets.json', {
      staff_id: inactiveAgent,
      user_id: userId,
      subject: 'S',
      message: 'M',
    });
    assert.equal(inactiveCreate.status, 403);
    const missing = await bridge('reply.json', { staff_id: 1, ticket_id: 999999, message: 'x' });
    assert.equal(missing.status, 404);
    const noSubject = await bridge('tickets.json', { staff_id: 1, user_id: userId, message: 'M' });
    assert.deepEqual([noSubject.status, noSubject.body.field], [400, 'subject']);
    const badSla = await bridge('tickets.json', {
      staff_id: 1,
      user_id: userId,
      subject: 'S',
      message: 'M',
      sla_id: 999,
    });
    assert.deepEqual([badSla.status, badSla.body.field], [400, 'sla_id']);
    assert.deepEqual(await counts(), before);
  });

  test('close: the status action with its comment as an internal note, as the panel writes it; twice is 409', async () => {
    const answer = await bridge('close.json', {
      staff_id: 1,
      ticket_id: bridgeTicket,
      status_id: 3,
      note: 'Fixed & done.',
    });
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    const [note] = await osticket.query<Row>(
      'SELECT type, title, body FROM ost_thread_entry WHERE id = ?',
      [answer.body.entry_id],
    );
    assert.deepEqual(note, { type: 'N', title: 'Status Changed', body: 'Fixed &amp; done.' });
    const again = await bridge('close.json', { staff_id: 1, ticket_id: bridgeTicket });
    assert.deepEqual([again.status, again.body.error], [409, 'not_closeable']);

    await admin.get(`scp/tickets.php?id=${panelTicket}`);
    const closed = await admin.postAjax(`scp/ajax.php/tickets/${panelTicket}/status`, {
      status_id: '3',
      comments: 'Fixed &amp; done.',
    });
    assert.equal(closed.status, 201, closed.text.slice(0, 300));
    await assertRowsLikePanel(AFTER_REPLY);
  });

  test('cron twice changes nothing in the tickets', async () => {
    const before = [await ticketRows(bridgeTicket), await counts()];
    await osticket.runCron();
    await osticket.runCron();
    assert.deepEqual([await ticketRows(bridgeTicket), await counts()], before);
  });
});
