import assert from 'node:assert/strict';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { startHttpProxy } from '../helpers/http-proxy.ts';
import type { OsticketBrowser } from '../helpers/osticket-browser.ts';
import { grantOsticketKey } from '../helpers/osticket-key-grant.ts';
import {
  addOsticketUser,
  addUnusualChoices,
  assertRowsLikePanel,
  assertTextReply,
  type Row,
  replyInPanel,
  textBody,
  ticketCounts,
  ticketRows,
} from '../helpers/osticket-ticket-rows.ts';
import { REAL_OSTICKET_SKIP, type RealOsticket } from '../helpers/real-osticket.ts';
import { sharedBridgeOsticket } from '../helpers/shared-osticket.ts';
import { type SmtpSink, startSmtpSink } from '../helpers/smtp-sink.ts';
import { useTestServer } from '../helpers/test-server.ts';

const skip = REAL_OSTICKET_SKIP;

/**
 * A proxy in front of osTicket that passes the request on, lets osTicket finish, and never
 * answers: osTicket wrote, deskgate times out (the case an Idempotency-Key retry must survive).
 */
function startAnswerLosingProxy(target: string): Promise<Server> {
  return startHttpProxy(target, (answer, res) => {
    answer.resume();
    answer.on('end', () => res.socket?.destroy());
  });
}

describe("deskgate's ticket writes in osTicket mode, by a real osTicket 1.18.1's own code", {
  skip,
}, () => {
  let osticket: RealOsticket;
  let sink: SmtpSink;
  let admin: OsticketBrowser;
  let losing: Server;
  let userId: number;
  let slaId: number;
  let waitingStatus: number;
  /** deskgate's own osTicket key, bound to deskgate's address (127.0.0.1 here). */
  let deskgateKey: string;
  /** A key made for e-mail piping: "Can Create Tickets", never granted anything by deskgate. */
  let pipingKey: { id: number; key: string };

  before(async () => {
    sink = await startSmtpSink();
    ({ osticket, admin, deskgateKey } = await sharedBridgeOsticket());
    await osticket.routeMailTo(sink.port);
    userId = await addOsticketUser(osticket, 'tess@example.net', 'Tess Ticket');
    // The client portal account of the user (osTicket's own hash of its password).
    const hash = await osticket.runPhp(`echo Passwd::hash('Portal-Pass-1');`);
    await osticket.insert(
      `INSERT INTO ost_user_account (user_id, status, timezone, username, passwd, extra, registered)
       VALUES (?, 1, 'UTC', NULL, ?, '', NOW())`,
      [userId, hash],
    );
    ({ slaId, waitingStatus } = await addUnusualChoices(osticket));
    losing = await startAnswerLosingProxy(osticket.baseUrl);
    // The client's key: replies and closes as agent 1, granted as an admin does (SPEC §4a).
    await grantOsticketKey({ url: osticket.databaseUrl }, osticket.apiKey.id, [
      '--scope',
      'users:read,tickets:read,tickets:write',
      '--agent',
      '1',
    ]);
    pipingKey = {
      key: 'B'.repeat(32),
      id: await osticket.insert(
        `INSERT INTO ost_api_key (isactive, ipaddr, apikey, can_create_tickets, can_exec_cron, notes, updated, created)
         VALUES (1, '127.0.0.1', ?, 1, 0, 'mail piping', NOW(), NOW())`,
        ['B'.repeat(32)],
      ),
    };
  });
  after(async () => {
    losing?.close();
    await sink?.stop();
  });

  const osticketMode = {
    DESKGATE_SCHEMA: 'osticket',
    DESKGATE_TABLE_PREFIX: 'ost_',
  };
  const deskgate = useTestServer(() => ({
    database: osticket.databaseUrl,
    env: {
      ...osticketMode,
      DESKGATE_OSTICKET_URL: osticket.baseUrl,
      DESKGATE_OSTICKET_API_KEY: deskgateKey,
      DESKGATE_OSTICKET_BRIDGE: 'true',
      DESKGATE_OSTICKET_BRIDGE_STAFF_ID: '1',
    },
    ownKey: false,
  }));
  const unconfigured = useTestServer(() => ({
    database: osticket.databaseUrl,
    env: osticketMode,
    ownKey: false,
  }));
  const timingOut = useTestServer(() => ({
    database: osticket.databaseUrl,
    env: {
      ...osticketMode,
      DESKGATE_OSTICKET_URL: `http://127.0.0.1:${(losing.address() as AddressInfo).port}${new URL(osticket.baseUrl).pathname}`,
      DESKGATE_OSTICKET_API_KEY: deskgateKey,
      DESKGATE_OSTICKET_TIMEOUT: '1000',
    },
    ownKey: false,
  }));

  const call = (
    server: typeof deskgate,
    condition: string,
    parameters: Record<string, unknown>,
    headers: Record<string, string> = {},
  ) =>
    server.request(
      { query: 'ticket', condition, parameters },
      { method: 'POST', key: osticket.apiKey.key, headers },
    );

  const input = {
    title: 'Printer on fire',
    subject: 'It smokes.\nPlease come.',
    topic_id: 1,
    priority_id: 4,
  };

  /** osTicket's staff panel "New Ticket" for the same input; resolves to the new ticket's id. */
  const openInPanel = async (fields: Record<string, string>) => {
    await admin.get('scp/tickets.php?a=open');
    await admin.postForm('scp/tickets.php?a=open', {
      a: 'open',
      do: 'create',
      uid: String(userId),
      source: 'API',
      topicId: String(input.topic_id),
      priority: String(input.priority_id),
      subject: input.title,
      message: 'It smokes.<br />Please come.',
      'reply-to': 'all',
      ...fields,
    });
    const [latest] = await osticket.query<{ id: number }>(
      'SELECT MAX(ticket_id) AS id FROM ost_ticket',
    );
    return latest?.id as number;
  };

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

  test("ticket/reply is posted by osTicket as the agent, mailed to the user, with the panel's rows", async () => {
    const mailsBefore = sink.messages.length;
    const reply = await call(deskgate, 'reply', {
      ticket_id: stockTicket,
      staff_id: 1,
      body: 'We are on it <b>now</b>.',
    });
    assert.equal(reply.status, 200, JSON.stringify(reply.body));
    await assertTextReply(osticket, sink, mailsBefore, Number(reply.body?.data), {
      body: 'We are on it &lt;b&gt;now&lt;/b&gt;.',
      to: 'tess@example.net',
    });

    await replyInPanel(admin, stockPanelTicket, 'We are on it &lt;b&gt;now&lt;/b&gt;.');
    await assertRowsLikePanel(osticket, stockTicket, stockPanelTicket, AFTER_REPLY);
  });

  /** After the reply: both bodies plain text, and who opened it (see the second test). */
  const AFTER_REPLY = [
    ...textBody(0),
    'entries[0].recipients',
    ...textBody(1),
    'events[0].staff_id',
    'events[0].username',
    'events[0].uid_type',
    'search[0].content',
    'search[1].content',
  ];

  test("ticket/close is osTicket's status action with the body as its note, as the panel writes it", async () => {
    const checked = await call(deskgate, 'close', {
      ticket_id: stockTicket,
      staff_id: 1,
      status_id: 3,
      dept_id: 2,
    });
    assert.equal(checked.status, 400);
    // One answer whichever field differs (no oracle, decision 313).
    const wrongLogin = await call(deskgate, 'close', {
      ticket_id: stockTicket,
      staff_id: 1,
      status_id: 3,
      username: 'not-the-login',
    });
    assert.equal(wrongLogin.status, 400);
    assert.deepEqual(wrongLogin.body?.errors, checked.body?.errors);
    assert.deepEqual(
      checked.body?.errors?.map((e) => e.field),
      ['parameters'],
    );
    const reply = await call(deskgate, 'close', {
      ticket_id: stockTicket,
      staff_id: 1,
      status_id: 3,
      body: 'Fixed & done.',
      username: osticket.admin.username,
    });
    assert.equal(reply.status, 200, JSON.stringify(reply.body));
    assert.equal(reply.body?.data, String(stockTicket));
    const again = await call(deskgate, 'close', {
      ticket_id: stockTicket,
      staff_id: 1,
      status_id: 3,
    });
    assert.deepEqual([again.status, again.body?.code], [409, 'not_closeable']);

    await admin.get(`scp/tickets.php?id=${stockPanelTicket}`);
    const closed = await admin.postAjax(`scp/ajax.php/tickets/${stockPanelTicket}/status`, {
      status_id: '3',
      comments: 'Fixed &amp; done.',
    });
    assert.equal(closed.status, 201, closed.text.slice(0, 300));
    await assertRowsLikePanel(osticket, stockTicket, stockPanelTicket, AFTER_REPLY);
  });

  test('ticket/specific reads back what osTicket wrote', async () => {
    const reply = await deskgate.request(
      { query: 'ticket', condition: 'specific', parameters: { id: stockTicket } },
      { key: osticket.apiKey.key },
    );
    assert.equal(reply.status, 200, JSON.stringify(reply.body));
    const data = reply.body?.data as { tickets: Record<string, unknown>[] } | undefined;
    const ticket = data?.tickets[0] ?? {};
    const [row] = await osticket.query<Row>(
      'SELECT number, status_id, closed FROM ost_ticket WHERE ticket_id = ?',
      [stockTicket],
    );
    assert.equal(ticket.number, row?.number);
    assert.equal(ticket.status_id, '3');
    assert.equal(ticket.closed, row?.closed);
    assert.equal(ticket.subject, 'Printer on fire');
    const entries = ticket.entries as { entry_type: string }[];
    assert.deepEqual(
      entries.map((entry) => entry.entry_type),
      ['M', 'R'],
    );
  });

  test('cron twice changes nothing in the tickets', async () => {
    const before = [
      await ticketRows(osticket, stockTicket),
      await ticketRows(osticket, pluginTicket),
      await ticketCounts(osticket),
    ];
    await osticket.runCron();
    await osticket.runCron();
    assert.deepEqual(
      [
        await ticketRows(osticket, stockTicket),
        await ticketRows(osticket, pluginTicket),
        await ticketCounts(osticket),
      ],
      before,
    );
  });

  test("refusals are deskgate's envelope and write nothing; deskgate's key is never echoed", async () => {
    const before = await ticketCounts(osticket);
    const unknownUser = await call(deskgate, 'add', { ...input, user_id: 999_999 });
    assert.deepEqual(unknownUser.body?.errors, [
      { field: 'parameters.user_id', message: 'is not an existing user' },
    ]);
    const badSla = await call(deskgate, 'add', { ...input, user_id: userId, sla_id: 999 });
    assert.equal(badSla.status, 400);
    assert.equal(badSla.body?.errors?.[0]?.field, 'parameters.sla_id');
    const noTicket = await call(deskgate, 'reply', { ticket_id: 999_999, staff_id: 1, body: 'x' });
    assert.equal(noTicket.body?.errors?.[0]?.field, 'parameters.ticket_id');
    for (const answer of [unknownUser, badSla, noTicket]) {
      assert.doesNotMatch(JSON.stringify(answer.body), new RegExp(deskgateKey));
    }
    assert.deepEqual(await ticketCounts(osticket), before);
    assert.doesNotMatch(deskgate.output.join('\n'), new RegExp(deskgateKey));
  });

  test('without DESKGATE_OSTICKET_URL and _API_KEY: 501 naming what to set up, nothing written', async () => {
    const before = await ticketCounts(osticket);
    for (const [condition, parameters] of [
      ['add', { ...input, user_id: userId }],
      ['reply', { ticket_id: pluginTicket, staff_id: 1, body: 'x' }],
      ['close', { ticket_id: pluginTicket, staff_id: 1, status_id: 3 }],
    ] as const) {
      const reply = await call(unconfigured, condition, parameters);
      assert.equal(reply.status, 501, condition);
      assert.equal(reply.body?.code, 'requires_osticket_bridge');
      assert.match(String(reply.body?.data), /DESKGATE_OSTICKET_URL and DESKGATE_OSTICKET_API_KEY/);
    }
    assert.deepEqual(await ticketCounts(osticket), before);
  });

  test("with the plugin disabled in osTicket's panel: 501 saying osTicket does not serve its routes", async () => {
    const before = await ticketCounts(osticket);
    const plugin = "install_path LIKE '%deskgate-bridge%'";
    await osticket.query(`UPDATE ost_plugin SET isactive = 0 WHERE ${plugin}`);
    try {
      const reply = await call(deskgate, 'reply', {
        ticket_id: pluginTicket,
        staff_id: 1,
        body: 'x',
      });
      assert.equal(reply.status, 501, reply.text);
      assert.equal(reply.body?.code, 'requires_osticket_bridge');
      assert.match(String(reply.body?.data), /osTicket does not serve the plugin's routes/);
      assert.doesNotMatch(String(reply.body?.data), /set DESKGATE_OSTICKET_BRIDGE/);
    } finally {
      await osticket.query(`UPDATE ost_plugin SET isactive = 1 WHERE ${plugin}`);
    }
    assert.deepEqual(await ticketCounts(osticket), before);
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

  // Issue 32 (SPEC §4a): a piping key gets through deskgate what osTicket's API lets it do.
  test("an ungranted piping key opens a ticket with osTicket's choices and can do nothing else", async () => {
    const as = (body: unknown, method = 'POST') =>
      deskgate.request(body, { method, key: pipingKey.key });
    const opened = await as({
      query: 'ticket',
      condition: 'add',
      parameters: { title: 'Piped', subject: 'From the mailbox.', user_id: userId },
    });
    assert.equal(opened.status, 200, JSON.stringify(opened.body));
    const ticketId = Number(opened.body?.data);
    const [row] = await osticket.query<Row>(
      'SELECT dept_id, source FROM ost_ticket WHERE ticket_id = ?',
      [ticketId],
    );
    assert.deepEqual(row, { dept_id: 1, source: 'API' });
    const before = await ticketCounts(osticket);
    const refusals = [
      [
        { query: 'ticket', condition: 'all', sort: 'status', parameters: { status: 0 } },
        'GET',
        'insufficient_scope',
      ],
      [
        { query: 'ticket', condition: 'specific', parameters: { id: ticketId } },
        'GET',
        'insufficient_scope',
      ],
      [
        {
          query: 'user',
          condition: 'all',
          parameters: { start_date: '2020-01-01', end_date: '2040-01-01' },
        },
        'GET',
        'insufficient_scope',
      ],
      [
        { query: 'user', condition: 'specific', parameters: { id: userId } },
        'GET',
        'insufficient_scope',
      ],
      [
        {
          query: 'ticket',
          condition: 'reply',
          parameters: { ticket_id: ticketId, body: 'Signed by the admin?', staff_id: 1 },
        },
        'POST',
        'agent_not_allowed',
      ],
      [
        {
          query: 'ticket',
          condition: 'close',
          parameters: { ticket_id: ticketId, staff_id: 1, status_id: 3 },
        },
        'POST',
        'agent_not_allowed',
      ],
      // A department osTicket would not choose goes through the plugin as an agent: none here.
      [
        {
          query: 'ticket',
          condition: 'add',
          parameters: { title: 'X', subject: 'Y', user_id: userId, dept_id: 2 },
        },
        'POST',
        'agent_not_allowed',
      ],
    ] as const;
    for (const [body, method, code] of refusals) {
      const refused = await as(body, method);
      assert.deepEqual([refused.status, refused.body?.code], [403, code], JSON.stringify(body));
    }
    assert.deepEqual(await ticketCounts(osticket), before, 'nothing written');
  });

  test('a key granted --agent replies as it; a staff_id outside its agents → 403 naming the grant', async () => {
    const id = Number((await call(deskgate, 'add', { ...input, user_id: userId })).body?.data);
    const before = await ticketCounts(osticket);
    const outside = await call(deskgate, 'reply', {
      ticket_id: id,
      body: 'As someone else',
      staff_id: 2,
    });
    assert.deepEqual([outside.status, outside.body?.code], [403, 'agent_not_allowed']);
    assert.match(
      String(outside.body?.data),
      new RegExp(
        `deskgate osticket keys grant ${osticket.apiKey.id} --scope .*tickets:write --agent 1,2`,
      ),
    );
    assert.deepEqual(await ticketCounts(osticket), before, 'nothing reached osTicket');
    // Its one agent: staff_id may be left out.
    const replied = await call(deskgate, 'reply', { ticket_id: id, body: 'As agent 1' });
    assert.equal(replied.status, 200, JSON.stringify(replied.body));
    const [entry] = await osticket.query<Row>(
      'SELECT staff_id FROM ost_thread_entry WHERE id = ?',
      [Number(replied.body?.data)],
    );
    assert.equal(entry?.staff_id, 1);
  });
});
