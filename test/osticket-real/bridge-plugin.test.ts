import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { OsticketBrowser } from '../helpers/osticket-browser.ts';
import { ROOT } from '../helpers/paths.ts';
import {
  REAL_OSTICKET_SKIP,
  type RealOsticket,
  startRealOsticket,
} from '../helpers/real-osticket.ts';
import { type SmtpSink, startSmtpSink } from '../helpers/smtp-sink.ts';

const skip = REAL_OSTICKET_SKIP;
const PLUGIN = join(ROOT, 'osticket-plugin', 'deskgate-bridge');

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

type Row = Record<string, unknown>;

const TIME_COLUMNS = new Set([
  'created',
  'updated',
  'lastupdate',
  'lastmessage',
  'lastresponse',
  'closed',
  'timestamp',
  'est_duedate',
  'reopened',
]);
const ID_COLUMNS = new Set([
  'ticket_id',
  'thread_id',
  'id',
  'object_id',
  'entry_id',
  'pid',
  'lock_id',
]);

/** A row with its ids, number and times replaced by what they are, so two tickets compare. */
function mask(row: Row, number: string): Row {
  const masked: Row = {};
  for (const [column, value] of Object.entries(row)) {
    if (ID_COLUMNS.has(column)) masked[column] = value ? '<id>' : value;
    else if (TIME_COLUMNS.has(column))
      masked[column] = value === null || value === '0000-00-00 00:00:00' ? value : '<time>';
    else if (typeof value === 'string') masked[column] = value.replaceAll(number, '<number>');
    else masked[column] = value;
  }
  return masked;
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

  /** The rows osTicket keeps for one ticket (tickets.md §3), masked. */
  const ticketRows = async (ticketId: number) => {
    const [ticket] = await osticket.query<Row & { number: string }>(
      'SELECT * FROM ost_ticket WHERE ticket_id = ?',
      [ticketId],
    );
    assert.ok(ticket, `no ticket ${ticketId}`);
    const [thread] = await osticket.query<Row & { id: number }>(
      `SELECT * FROM ost_thread WHERE object_id = ? AND object_type = 'T'`,
      [ticketId],
    );
    assert.ok(thread);
    const entries = await osticket.query<Row>(
      'SELECT * FROM ost_thread_entry WHERE thread_id = ? ORDER BY id',
      [thread.id],
    );
    const events = await osticket.query<Row>(
      `SELECT * FROM ost_thread_event WHERE thread_id = ? ORDER BY id`,
      [thread.id],
    );
    const formEntries = await osticket.query<Row>(
      `SELECT * FROM ost_form_entry WHERE object_id = ? AND object_type = 'T' ORDER BY id`,
      [ticketId],
    );
    const values = await osticket.query<Row>(
      `SELECT v.field_id, v.value, v.value_id FROM ost_form_entry_values v JOIN ost_form_entry e ON e.id = v.entry_id
        WHERE e.object_id = ? AND e.object_type = 'T' ORDER BY v.field_id`,
      [ticketId],
    );
    const cdata = await osticket.query<Row>('SELECT * FROM ost_ticket__cdata WHERE ticket_id = ?', [
      ticketId,
    ]);
    const search = await osticket.query<Row>(
      `SELECT object_type, object_id, title, content FROM ost__search
        WHERE (object_type = 'T' AND object_id = ?)
           OR (object_type = 'H' AND object_id IN (SELECT id FROM ost_thread_entry WHERE thread_id = ?))
        ORDER BY object_type, object_id`,
      [ticketId, thread.id],
    );
    const number = ticket.number;
    const m = (rows: Row[]) => rows.map((row) => mask(row, number));
    return {
      ticket: mask(ticket, number),
      thread: mask(thread, number),
      entries: m(entries),
      events: m(events),
      formEntries: m(formEntries),
      values: m(values),
      cdata: m(cdata),
      search: m(search),
    };
  };

  /**
   * What differs from the panel by design: deskgate's bodies are plain text (format 'text',
   * stored HTML-escaped, no "balanced HTML" flag 0x40, searchable text as given), and the
   * panel's "New Ticket" mails the user and records the recipients (flag 0x200) while an API
   * ticket does not (tickets.md §3.1).
   */
  const textBody = (index: number) => [
    `entries[${index}].flags`,
    `entries[${index}].body`,
    `entries[${index}].format`,
  ];

  /** After the reply (and the close, whose note is HTML on both sides): both bodies. */
  const AFTER_REPLY = [
    ...textBody(0),
    'entries[0].recipients',
    ...textBody(1),
    'search[0].content',
    'search[1].content',
  ];

  /** Column-level differences between two snapshots, as "table[i].column". */
  const differences = (a: Record<string, Row | Row[]>, b: Record<string, Row | Row[]>) => {
    const found: string[] = [];
    for (const table of Object.keys(a)) {
      const left = ([] as Row[]).concat(a[table] as Row);
      const right = ([] as Row[]).concat(b[table] as Row);
      if (left.length !== right.length)
        found.push(`${table}.length ${left.length} vs ${right.length}`);
      left.forEach((row, index) => {
        for (const column of Object.keys(row)) {
          if (JSON.stringify(row[column]) !== JSON.stringify(right[index]?.[column])) {
            found.push(`${table}[${index}].${column}`);
          }
        }
      });
    }
    return found;
  };

  /** The two tickets' rows differ in exactly `expected` (see textBody). */
  const assertRowsLikePanel = async (expected: string[]) => {
    const bridgeRows = await ticketRows(bridgeTicket);
    const panelRows = await ticketRows(panelTicket);
    assert.deepEqual(
      differences(bridgeRows, panelRows),
      expected,
      JSON.stringify({ bridgeRows, panelRows }),
    );
  };

  const counts = async () =>
    osticket.query<Row>(
      `SELECT (SELECT COUNT(*) FROM ost_ticket) t, (SELECT COUNT(*) FROM ost_thread_entry) e,
              (SELECT COUNT(*) FROM ost_thread_event) v, (SELECT COUNT(*) FROM ost_form_entry) f,
              (SELECT MAX(updated) FROM ost_ticket) u, (SELECT GROUP_CONCAT(status_id) FROM ost_ticket) s`,
    );

  before(async () => {
    sink = await startSmtpSink();
    osticket = await startRealOsticket({ plugins: [PLUGIN] });
    await osticket.routeMailTo(sink.port);
    admin = await osticket.staffBrowser();

    // As an admin installs it: Admin panel → Manage → Plugins → Add New → Install, enable,
    // then add its one instance with the allow-list.
    await admin.get('scp/plugins.php?a=add');
    const installed = await admin.postForm('scp/plugins.php?a=add', {
      do: 'install',
      install_path: 'deskgate-bridge',
    });
    assert.match(installed.text, /Successfully installed/);
    const [plugin] = await osticket.query<{ id: number; isactive: number }>(
      `SELECT id, isactive FROM ost_plugin WHERE install_path = 'plugins/deskgate-bridge'`,
    );
    assert.ok(plugin);
    await admin.get('scp/plugins.php');
    await admin.postForm('scp/plugins.php', {
      do: 'mass_process',
      a: 'enable',
      'ids[]': String(plugin.id),
    });
    await admin.get(`scp/plugins.php?id=${plugin.id}&a=add-instance`);
    const added = await admin.postForm(`scp/plugins.php?id=${plugin.id}&a=add-instance`, {
      do: 'add-instance',
      a: 'add-instance',
      id: String(plugin.id),
      xid: '0',
      name: 'deskgate',
      isactive: '1',
      notes: '',
      api_key_ids: String(osticket.apiKey.id),
    });
    assert.match(added.text, /Added Successfully/);

    // A user (through osTicket's API), a 4-hour SLA on the 24/7 schedule, a key not on the
    // allow-list, an inactive agent and an agent whose role may not reply or close.
    const created = await fetch(`${osticket.baseUrl}api/tickets.json`, {
      method: 'POST',
      headers: { 'x-api-key': osticket.apiKey.key },
      body: JSON.stringify({
        email: 'tess@example.net',
        name: 'Tess Ticket',
        subject: 'First',
        message: 'Hello',
      }),
    });
    assert.equal(created.status, 201);
    [{ id: userId }] = (await osticket.query<{ id: number }>(
      `SELECT user_id AS id FROM ost_user_email WHERE address = 'tess@example.net'`,
    )) as [{ id: number }];
    const [always] = await osticket.query<{ id: number }>(
      `SELECT id FROM ost_schedule WHERE name LIKE '24/7%'`,
    );
    slaId = await osticket.insert(
      `INSERT INTO ost_sla (schedule_id, flags, grace_period, name, notes, created, updated)
       VALUES (?, 1, 4, 'Four hours', '', NOW(), NOW())`,
      [always?.id ?? 0],
    );
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
    waitingStatus = await osticket.insert(
      `INSERT INTO ost_ticket_status (name, state, mode, flags, sort, properties, created, updated)
       VALUES ('Waiting', 'open', 3, 0, 6, '{}', NOW(), NOW())`,
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
    const [row] = await osticket.query<{ est_duedate: string; due: string }>(
      'SELECT est_duedate, created + INTERVAL 4 HOUR AS due FROM ost_ticket WHERE ticket_id = ?',
      [bridgeTicket],
    );
    const recomputed = await osticket.runPhp(
      `echo Ticket::lookup(${bridgeTicket})->getSLADueDate(true);`,
    );
    assert.equal(recomputed, row?.est_duedate);
    assert.equal(row?.est_duedate, row?.due);
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
    const [entry] = await osticket.query<Row>(
      'SELECT type, staff_id, format, body FROM ost_thread_entry WHERE id = ?',
      [answer.body.entry_id],
    );
    assert.deepEqual(entry, {
      type: 'R',
      staff_id: 1,
      format: 'text',
      body: 'We are on it &lt;b&gt;now&lt;/b&gt;.',
    });
    const mails = await sink.waitFor(mailsBefore + 1);
    assert.ok(
      mails.slice(mailsBefore).some((mail) => mail.to.includes('tess@example.net')),
      JSON.stringify(mails.map((mail) => mail.to)),
    );

    const lock = await admin.postAjax(`scp/ajax.php/lock/ticket/${panelTicket}`, {});
    const { code } = JSON.parse(lock.text) as { code: string };
    await admin.get(`scp/tickets.php?id=${panelTicket}`);
    await admin.postForm(`scp/tickets.php?id=${panelTicket}`, {
      id: String(panelTicket),
      a: 'reply',
      lockCode: code,
      'reply-to': 'all',
      response: 'We are on it &lt;b&gt;now&lt;/b&gt;.',
    });
    await assertRowsLikePanel(AFTER_REPLY);
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
