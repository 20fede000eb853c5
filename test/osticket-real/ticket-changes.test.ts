import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { OsticketBrowser } from '../helpers/osticket-browser.ts';
import {
  addOsticketUser,
  addUnusualChoices,
  assertRowsLikePanel,
  BRIDGE_PLUGIN,
  bridgeModeEnv,
  enableBridgePlugin,
  type Row,
  textBody,
  ticketCounts,
  ticketRows,
} from '../helpers/osticket-ticket-rows.ts';
import {
  REAL_OSTICKET_SKIP,
  type RealOsticket,
  startRealOsticket,
} from '../helpers/real-osticket.ts';
import { type SmtpSink, startSmtpSink } from '../helpers/smtp-sink.ts';
import { useTestServer } from '../helpers/test-server.ts';

const skip = REAL_OSTICKET_SKIP;

interface ChangeAnswer {
  status: number;
  body: {
    ticket_id?: number;
    number?: string;
    entry_id?: number | null;
    changed?: boolean;
    updated?: string;
    error?: string;
    field?: string;
    message?: string;
  };
}

/**
 * The bridge plugin's ticket changes (issue 35): each route's rows equal the rows the staff
 * panel writes for the same action on a twin ticket, the panel shows the change, cron changes
 * nothing after, refusals write nothing, and if_unmodified_since is enforced under a row lock.
 */
describe("the bridge plugin's ticket changes in a real osTicket 1.18.1", { skip }, () => {
  let osticket: RealOsticket;
  let sink: SmtpSink;
  let admin: OsticketBrowser;
  let userId: number;
  let slaId: number;
  /** An available agent of Support (department 1), to assign to. */
  let helper: number;
  /** A team with helper as its member. */
  let team: number;
  /** An agent of Support whose role may only open tickets. */
  let lookOnly: number;
  /** An agent with a full role in Sales (department 2) only. */
  let salesOnly: number;
  let ours: number;
  let panels: number;

  const change = async (route: string, body: Record<string, unknown>): Promise<ChangeAnswer> => {
    const response = await fetch(`${osticket.baseUrl}api/deskgate/${route}.json`, {
      method: 'POST',
      headers: { 'x-api-key': osticket.apiKey.key, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    assert.equal(response.headers.get('content-type'), 'application/json; charset=UTF-8');
    return { status: response.status, body: (await response.json()) as ChangeAnswer['body'] };
  };
  const ok = async (route: string, body: Record<string, unknown>): Promise<ChangeAnswer> => {
    const answer = await change(route, { staff_id: 1, ticket_id: ours, ...body });
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    assert.equal(answer.body.changed, true, JSON.stringify(answer.body));
    assert.equal(answer.body.updated, await updatedOf(answer.body.ticket_id as number));
    return answer;
  };
  /** A staff-panel XHR on the twin ticket; osTicket answers 201 when it did it. */
  const inPanel = async (path: string, fields: Record<string, string>): Promise<void> => {
    await admin.get(`scp/tickets.php?id=${panels}`);
    const done = await admin.postAjax(`scp/ajax.php/tickets/${panels}/${path}`, fields);
    assert.equal(done.status, 201, done.text.slice(0, 500));
  };
  const sameRows = (expected: string[] = []) =>
    assertRowsLikePanel(osticket, ours, panels, expected);
  const counts = () => ticketCounts(osticket);
  const updatedOf = async (ticketId: number) =>
    (
      await osticket.query<{ updated: string }>(
        'SELECT updated FROM ost_ticket WHERE ticket_id = ?',
        [ticketId],
      )
    )[0]?.updated as string;
  const newTicket = async () => {
    const created = await fetch(`${osticket.baseUrl}api/deskgate/tickets.json`, {
      method: 'POST',
      headers: { 'x-api-key': osticket.apiKey.key, 'content-type': 'application/json' },
      body: JSON.stringify({
        staff_id: 1,
        user_id: userId,
        subject: 'Printer on fire',
        message: 'It smokes.',
        topic_id: 1,
        dept_id: 1,
        priority_id: 2,
      }),
    });
    assert.equal(created.status, 201);
    return ((await created.json()) as { ticket_id: number }).ticket_id;
  };

  before(async () => {
    sink = await startSmtpSink();
    osticket = await startRealOsticket({ plugins: [BRIDGE_PLUGIN] });
    await osticket.routeMailTo(sink.port);
    admin = await osticket.staffBrowser();
    await enableBridgePlugin(osticket, admin, [osticket.apiKey.id]);
    userId = await addOsticketUser(osticket, 'tess@example.net', 'Tess Ticket');
    ({ slaId } = await addUnusualChoices(osticket));
    const agent = (username: string, deptId: number, roleId: number) =>
      osticket.insert(
        `INSERT INTO ost_staff (dept_id, role_id, username, firstname, lastname, email, signature, isactive, created, updated)
         VALUES (?, ?, ?, 'Test', ?, ?, '', 1, NOW(), NOW())`,
        [deptId, roleId, username, username, `${username}@deskgate.test`],
      );
    const createOnly = await osticket.insert(
      `INSERT INTO ost_role (flags, name, permissions, notes, created, updated)
       VALUES (1, 'Open only', '{"ticket.create":1}', '', NOW(), NOW())`,
    );
    helper = await agent('helper', 1, 1);
    lookOnly = await agent('lookonly', 1, createOnly);
    salesOnly = await agent('salesonly', 2, 1);
    team = await osticket.insert(
      `INSERT INTO ost_team (lead_id, flags, name, notes, created, updated)
       VALUES (0, 1, 'Night shift', '', NOW(), NOW())`,
    );
    await osticket.insert(
      'INSERT INTO ost_team_member (team_id, staff_id, flags) VALUES (?, ?, 0)',
      [team, helper],
    );
    ours = await newTicket();
    panels = await newTicket();
    await sameRows();
  });
  after(async () => {
    await osticket?.stop();
    await sink?.stop();
  });

  /** deskgate in osTicket mode with the plugin, its key the client's too (any agent). */
  const deskgate = useTestServer(() => ({
    database: osticket.databaseUrl,
    env: {
      ...bridgeModeEnv(osticket, osticket.apiKey.key),
    },
    ownKey: false,
  }));
  const viaDeskgate = (
    condition: string,
    parameters: Record<string, unknown>,
    headers: Record<string, string> = {},
  ) =>
    deskgate.request(
      { query: 'ticket', condition, parameters },
      { method: 'POST', key: osticket.apiKey.key, headers },
    );
  const readViaDeskgate = async (id: number) => {
    const reply = await deskgate.request(
      { query: 'ticket', condition: 'specific', parameters: { id } },
      { method: 'GET', key: osticket.apiKey.key },
    );
    assert.equal(reply.status, 200, reply.text);
    const data = reply.body?.data as { tickets: Record<string, unknown>[] } | undefined;
    const ticket = data?.tickets[0];
    assert.ok(ticket, reply.text);
    return ticket;
  };

  test('note: an internal note as the agent, the rows of the panel’s "Post Internal Note"', async () => {
    const eventsBefore = (await ticketRows(osticket, ours)).events;
    const answer = await ok('note', { title: 'Called them', note: 'Line 1 <b>&</b>\nLine 2' });
    const [entry] = await osticket.query<Row>(
      'SELECT type, staff_id, poster, title, format, body FROM ost_thread_entry WHERE id = ?',
      [answer.body.entry_id],
    );
    assert.deepEqual(entry, {
      type: 'N',
      staff_id: 1,
      poster: 'Desk Admin',
      title: 'Called them',
      format: 'text',
      body: 'Line 1 &lt;b&gt;&amp;&lt;/b&gt;\nLine 2',
    });
    assert.deepEqual((await ticketRows(osticket, ours)).events, eventsBefore, 'a note is no event');

    const lock = await admin.postAjax(`scp/ajax.php/lock/ticket/${panels}`, {});
    const { code } = JSON.parse(lock.text) as { code: string };
    await admin.get(`scp/tickets.php?id=${panels}`);
    await admin.postForm(`scp/tickets.php?id=${panels}`, {
      id: String(panels),
      a: 'postnote',
      lockCode: code,
      title: 'Called them',
      note: 'Line 1 &lt;b&gt;&amp;&lt;/b&gt;<br />Line 2',
    });
    // deskgate's bodies are text (format 'text'), the panel's HTML: only those columns differ.
    await sameRows([...textBody(1), 'search[1].content']);
  });

  test('status: closing with a comment, then reopening, as the panel’s status action', async () => {
    const closed = await ok('status', { status_id: 3, comments: 'Fixed & done.' });
    const [note] = await osticket.query<Row>(
      'SELECT type, title, body FROM ost_thread_entry WHERE id = ?',
      [closed.body.entry_id],
    );
    assert.deepEqual(note, { type: 'N', title: 'Status Changed', body: 'Fixed &amp; done.' });
    await inPanel('status', { status_id: '3', comments: 'Fixed &amp; done.' });
    await sameRows([...textBody(1), 'search[1].content']);

    const reopened = await ok('status', { status_id: 1 });
    assert.equal(reopened.body.entry_id, null);
    await inPanel('status', { status_id: '1' });
    await sameRows([...textBody(1), 'search[1].content']);
    const [row] = await osticket.query<Row>(
      'SELECT status_id, closed, reopened IS NOT NULL AS reopened FROM ost_ticket WHERE ticket_id = ?',
      [ours],
    );
    assert.deepEqual(row, { status_id: 1, closed: null, reopened: 1 });
  });

  test('assign: to an agent (alerted by mail), released, to a team, as the panel does', async () => {
    const mailsBefore = sink.messages.length;
    const assigned = await ok('assign', { agent_id: helper, comments: 'Yours now' });
    assert.notEqual(assigned.body.entry_id, null);
    await sink.waitFor(mailsBefore + 1);
    assert.ok(
      sink.messages.slice(mailsBefore).some((mail) => mail.to.includes('helper@deskgate.test')),
      'the assignment alert went to the agent',
    );
    await inPanel('assign/agents', { 'assignee[]': `s${helper}`, comments: 'Yours now' });
    await sameRows([...textBody(1), 'search[1].content']);

    await ok('assign', { agent_id: 0, comments: 'Not yours' });
    await inPanel('release', { sid: String(helper), comments: 'Not yours' });
    await sameRows([...textBody(1), 'search[1].content']);

    await ok('assign', { team_id: team });
    await inPanel('assign/teams', { 'assignee[]': `t${team}` });
    await sameRows([...textBody(1), 'search[1].content']);
    const [row] = await osticket.query<Row>(
      'SELECT staff_id, team_id FROM ost_ticket WHERE ticket_id = ?',
      [ours],
    );
    assert.deepEqual(row, { staff_id: 0, team_id: team });
  });

  test('transfer: to Sales with a comment, as the panel’s transfer', async () => {
    await ok('transfer', { dept_id: 2, comments: 'For sales' });
    await inPanel('transfer', { dept: '2', comments: 'For sales' });
    await sameRows([...textBody(1), 'search[1].content']);
  });

  test('update: priority, topic, SLA and due date, as the panel’s four inline edits', async () => {
    await ok('update', {
      priority_id: 4,
      topic_id: 2,
      sla_id: slaId,
      duedate: '2031-01-06 10:00:00',
    });
    await inPanel('field/priority/edit', { priority: '4', comments: '' });
    await inPanel('field/topic/edit', { topic_id: '2', comments: '' });
    await inPanel('field/sla/edit', { sla_id: String(slaId), comments: '' });
    await inPanel('field/duedate/edit', { duedate: '2031-01-06 10:00:00', comments: '' });
    await sameRows([...textBody(1), 'search[1].content']);
    const [row] = await osticket.query<Row>(
      `SELECT t.topic_id, t.sla_id, t.duedate, c.priority FROM ost_ticket t
        JOIN ost_ticket__cdata c ON c.ticket_id = t.ticket_id WHERE t.ticket_id = ?`,
      [ours],
    );
    assert.deepEqual(row, {
      topic_id: 2,
      sla_id: slaId,
      duedate: '2031-01-06 10:00:00',
      priority: '4',
    });

    // The SLA due date osTicket recomputed for the new plan (times are masked above).
    const [due] = await osticket.query<{ est_duedate: string }>(
      'SELECT est_duedate FROM ost_ticket WHERE ticket_id = ?',
      [ours],
    );
    assert.equal(
      due?.est_duedate,
      await osticket.runPhp(`echo Ticket::lookup(${ours})->getSLADueDate(true);`),
    );

    await ok('update', { duedate: null });
    await inPanel('field/duedate/edit', { duedate: '', comments: '' });
    await sameRows([...textBody(1), 'search[1].content']);
  });

  test('the staff panel shows the changes', async () => {
    const page = await admin.get(`scp/tickets.php?id=${ours}`);
    assert.equal(page.status, 200);
    for (const shown of ['Sales', 'Night shift', 'Emergency', 'Four hours', 'Called them']) {
      assert.ok(page.text.includes(shown), `the ticket page shows ${shown}`);
    }
  });

  test('a change that changes nothing answers changed:false and writes nothing', async () => {
    const before = [await ticketRows(osticket, ours), await counts()];
    for (const [route, body] of [
      ['status', { status_id: 1, comments: 'Still open' }],
      ['assign', { team_id: team }],
      ['assign', { agent_id: 0 }],
      ['transfer', { dept_id: 2 }],
      ['update', { priority_id: 4, sla_id: slaId }],
    ] as const) {
      const answer = await change(route, { staff_id: 1, ticket_id: ours, ...body });
      assert.equal(answer.status, 200, JSON.stringify(answer.body));
      assert.deepEqual(
        [answer.body.changed, answer.body.entry_id, answer.body.updated],
        [false, null, await updatedOf(ours)],
        route,
      );
    }
    assert.deepEqual([await ticketRows(osticket, ours), await counts()], before);
  });

  test("osTicket's cron twice changes nothing in the changed tickets", async () => {
    const before = [await ticketRows(osticket, ours), await ticketRows(osticket, panels)];
    await osticket.runCron();
    await osticket.runCron();
    assert.deepEqual(
      [await ticketRows(osticket, ours), await ticketRows(osticket, panels)],
      before,
    );
  });

  test("refusals write nothing: the agent's role, its departments, bad fields, unknown ids", async () => {
    const ticket = await newTicket();
    const before = await counts();
    const refused = async (
      route: string,
      body: Record<string, unknown>,
      expected: [number, string, string?],
    ) => {
      const answer = await change(route, { staff_id: 1, ticket_id: ticket, ...body });
      assert.deepEqual(
        [answer.status, answer.body.error, answer.body.field],
        [expected[0], expected[1], expected[2]],
        `${route} ${JSON.stringify(body)}: ${JSON.stringify(answer.body)}`,
      );
    };
    // An agent whose role in Support may only open tickets.
    await refused('status', { staff_id: lookOnly, status_id: 3 }, [403, 'forbidden']);
    await refused('assign', { staff_id: lookOnly, agent_id: helper }, [403, 'forbidden']);
    await refused('transfer', { staff_id: lookOnly, dept_id: 2 }, [403, 'forbidden']);
    await refused('update', { staff_id: lookOnly, priority_id: 1 }, [403, 'forbidden']);
    // An agent without access to Support at all, even for a note.
    await refused('note', { staff_id: salesOnly, note: 'Hi' }, [403, 'forbidden']);
    await refused('status', { staff_id: salesOnly, status_id: 3 }, [403, 'forbidden']);
    await refused('note', { staff_id: 999, note: 'Hi' }, [400, 'invalid_field', 'staff_id']);
    await refused('note', { ticket_id: 999999, note: 'Hi' }, [404, 'not_found']);
    await refused('note', { note: '  ' }, [400, 'invalid_field', 'note']);
    await refused('status', { status_id: 999 }, [400, 'invalid_field', 'status_id']);
    await refused('status', { status_id: '3 OR 1=1' }, [400, 'invalid_field', 'status_id']);
    await refused('assign', {}, [400, 'invalid_field', 'agent_id']);
    await refused('assign', { agent_id: helper, team_id: team }, [400, 'invalid_field', 'team_id']);
    await refused('assign', { agent_id: 999 }, [400, 'invalid_field', 'agent_id']);
    await refused('transfer', { dept_id: 999 }, [400, 'invalid_field', 'dept_id']);
    await refused('update', {}, [400, 'invalid_field', 'priority_id']);
    await refused('update', { topic_id: 999 }, [400, 'invalid_field', 'topic_id']);
    await refused('update', { sla_id: 0 }, [400, 'invalid_field', 'sla_id']);
    await refused('update', { duedate: '2031-02-30 10:00:00' }, [400, 'invalid_field', 'duedate']);
    await refused('update', { duedate: '2001-01-01 10:00:00' }, [400, 'invalid_field', 'duedate']);
    await refused('update', { priority_id: 1, if_unmodified_since: 'yesterday' }, [
      400,
      'invalid_field',
      'if_unmodified_since',
    ]);
    // Transfer needs access to the target department too: helper has none to Sales.
    await refused('transfer', { staff_id: helper, dept_id: 2 }, [403, 'forbidden']);
    // osTicket's own refusals of the assignee, naming the parameter.
    const away = await osticket.insert(
      `INSERT INTO ost_staff (dept_id, role_id, username, firstname, lastname, email, signature, isactive, onvacation, created, updated)
       VALUES (1, 1, 'away', 'Test', 'away', 'away@deskgate.test', '', 1, 1, NOW(), NOW())`,
    );
    await refused('assign', { agent_id: away }, [409, 'refused', 'agent_id']);
    const empty = await osticket.insert(
      `INSERT INTO ost_team (lead_id, flags, name, notes, created, updated) VALUES (0, 1, 'Empty', '', NOW(), NOW())`,
    );
    await refused('assign', { team_id: empty }, [409, 'refused', 'team_id']);
    assert.deepEqual(await counts(), before);

    // The panel lets an agent who may open tickets reopen one: so does the plugin.
    await ok('status', { ticket_id: ticket, status_id: 3 });
    const reopened = await change('status', {
      staff_id: lookOnly,
      ticket_id: ticket,
      status_id: 1,
    });
    assert.deepEqual([reopened.status, reopened.body.changed], [200, true]);
    // The caller's address is the note's.
    const noted = await ok('note', { ticket_id: ticket, note: 'From afar', ip: '203.0.113.9' });
    const [entry] = await osticket.query<Row>(
      'SELECT ip_address FROM ost_thread_entry WHERE id = ?',
      [noted.body.entry_id],
    );
    assert.deepEqual(entry, { ip_address: '203.0.113.9' });
  });

  test('if_unmodified_since: a stale value is 409 conflict with the current updated, nothing written', async () => {
    const ticket = await newTicket();
    const current = await updatedOf(ticket);
    const before = [await ticketRows(osticket, ticket), await counts()];
    for (const [route, body] of [
      ['note', { note: 'Late' }],
      ['status', { status_id: 3 }],
      ['assign', { agent_id: helper }],
      ['transfer', { dept_id: 2 }],
      ['update', { priority_id: 4 }],
    ] as const) {
      const answer = await change(route, {
        staff_id: 1,
        ticket_id: ticket,
        if_unmodified_since: '2001-01-01 00:00:00',
        ...body,
      });
      assert.deepEqual(
        [answer.status, answer.body.error, (answer.body as { updated?: string }).updated],
        [409, 'conflict', current],
        route,
      );
    }
    assert.deepEqual([await ticketRows(osticket, ticket), await counts()], before);
    const fresh = await change('status', {
      staff_id: 1,
      ticket_id: ticket,
      status_id: 3,
      if_unmodified_since: current,
    });
    assert.deepEqual([fresh.status, fresh.body.changed], [200, true]);
  });

  test('two changes read the same updated at once: the row lock lets exactly one through', async () => {
    for (let round = 0; round < 3; round++) {
      const ticket = await newTicket();
      // An updated in the past, so the winner's own write surely changes it.
      await osticket.query(
        `UPDATE ost_ticket SET updated = '2020-01-01 00:00:00' WHERE ticket_id = ?`,
        [ticket],
      );
      const since = '2020-01-01 00:00:00';
      const answers = await Promise.all([
        change('transfer', {
          staff_id: 1,
          ticket_id: ticket,
          dept_id: 2,
          if_unmodified_since: since,
        }),
        change('status', {
          staff_id: 1,
          ticket_id: ticket,
          status_id: 3,
          if_unmodified_since: since,
        }),
        change('update', {
          staff_id: 1,
          ticket_id: ticket,
          priority_id: 4,
          if_unmodified_since: since,
        }),
      ]);
      const statuses = answers.map((answer) => answer.status).sort();
      assert.deepEqual(statuses, [200, 409, 409], JSON.stringify(answers));
      const [events] = await osticket.query<{ n: number }>(
        `SELECT COUNT(*) n FROM ost_thread_event e JOIN ost_thread t ON t.id = e.thread_id
          WHERE t.object_type = 'T' AND t.object_id = ?`,
        [ticket],
      );
      assert.equal(events?.n, 2, 'the creation and one change');
    }
  });

  test('through deskgate, as an integrator: reopen, assign, transfer, re-prioritise, note, each on the updated it read', async () => {
    const ticket = await newTicket();
    const closed = await viaDeskgate('close', { ticket_id: ticket, staff_id: 1, status_id: 3 });
    assert.equal(closed.status, 200, closed.text);

    const steps: [string, Record<string, unknown>][] = [
      ['status', { status_id: 1, comments: 'The printer burns again.' }],
      ['assign', { agent_id: helper, comments: 'You know printers.' }],
      ['transfer', { dept_id: 2, comments: 'Sales pays for printers.' }],
      ['update', { priority_id: 4, duedate: '2031-01-06 10:00:00' }],
    ];
    for (const [condition, parameters] of steps) {
      // osTicket's updated counts seconds: an earlier one, so that each change surely moves it.
      await osticket.query(
        `UPDATE ost_ticket SET updated = '2020-01-01 00:00:00' WHERE ticket_id = ?`,
        [ticket],
      );
      const { updated } = await readViaDeskgate(ticket);
      const reply = await viaDeskgate(condition, {
        ticket_id: ticket,
        staff_id: 1,
        if_unmodified_since: updated,
        ...parameters,
      });
      assert.equal(reply.status, 200, `${condition}: ${reply.text}`);
      assert.equal(reply.body?.data, String(ticket), condition);
      assert.notEqual((await readViaDeskgate(ticket)).updated, updated, condition);
    }
    const read = await readViaDeskgate(ticket);
    assert.deepEqual(
      [read.status_id, read.staff_id, read.dept_id, read.priority_id, read.duedate],
      ['1', String(helper), '2', '4', '2031-01-06 10:00:00'],
    );

    // A note sent twice with one Idempotency-Key: one note, the same answer.
    const before = await counts();
    const key = { 'idempotency-key': 'note-once-1' };
    const note = { ticket_id: ticket, staff_id: 1, body: 'Ordered a new one.', title: 'Ordered' };
    const first = await viaDeskgate('note', note, key);
    const second = await viaDeskgate('note', note, key);
    assert.equal(first.status, 200, first.text);
    assert.deepEqual(second.body?.data, first.body?.data);
    const [counted] = await osticket.query<{ n: number }>(
      `SELECT COUNT(*) n FROM ost_thread_entry WHERE title = 'Ordered'`,
    );
    assert.equal(counted?.n, 1);
    assert.equal((await counts())[0]?.e, Number(before[0]?.e) + 1);

    // What the staff panel shows of it.
    const page = await admin.get(`scp/tickets.php?id=${ticket}`);
    for (const shown of [
      'Sales',
      'Test helper',
      'Emergency',
      'Ordered a new one.',
      'You know printers.',
      'Sales pays for printers.',
    ]) {
      assert.ok(page.text.includes(shown), `the ticket page shows ${shown}`);
    }
  });

  test('a ticket with an open task is not closed: 409 not_closeable from the plugin and from deskgate', async () => {
    const ticket = await newTicket();
    // An open task (flags 1) of the ticket, the one row osTicket's isCloseable counts.
    await osticket.insert(
      `INSERT INTO ost_task (object_id, object_type, number, dept_id, flags, created, updated)
       VALUES (?, 'T', '9001', 1, 1, NOW(), NOW())`,
      [ticket],
    );
    const before = [await ticketRows(osticket, ticket), await counts()];
    const plugin = await change('status', { staff_id: 1, ticket_id: ticket, status_id: 3 });
    assert.deepEqual(
      [plugin.status, plugin.body.error],
      [409, 'not_closeable'],
      plugin.body.message,
    );
    const reply = await viaDeskgate('status', { ticket_id: ticket, staff_id: 1, status_id: 3 });
    assert.deepEqual([reply.status, reply.body?.code], [409, 'not_closeable'], reply.text);
    assert.deepEqual([await ticketRows(osticket, ticket), await counts()], before);
  });

  test('through deskgate: a stale if_unmodified_since is 409 conflict with the current updated; an agent without the right is refused', async () => {
    const ticket = await newTicket();
    await osticket.query(
      `UPDATE ost_ticket SET updated = '2020-01-01 00:00:00' WHERE ticket_id = ?`,
      [ticket],
    );
    const { updated } = await readViaDeskgate(ticket);
    const changed = await viaDeskgate('update', { ticket_id: ticket, staff_id: 1, priority_id: 4 });
    assert.equal(changed.status, 200, changed.text);
    const now = (await readViaDeskgate(ticket)).updated;
    const before = [await ticketRows(osticket, ticket), await counts()];
    const stale = await viaDeskgate('transfer', {
      ticket_id: ticket,
      staff_id: 1,
      dept_id: 2,
      if_unmodified_since: updated,
    });
    assert.deepEqual([stale.status, stale.body?.code, stale.body?.updated], [409, 'conflict', now]);
    const refused = await viaDeskgate('assign', {
      ticket_id: ticket,
      staff_id: lookOnly,
      agent_id: helper,
    });
    assert.deepEqual([refused.status, refused.body?.code], [403, 'osticket_refused'], refused.text);
    const same = await viaDeskgate('update', { ticket_id: ticket, staff_id: 1, priority_id: 4 });
    assert.equal(same.status, 200, same.text);
    assert.deepEqual([await ticketRows(osticket, ticket), await counts()], before);
  });
});
