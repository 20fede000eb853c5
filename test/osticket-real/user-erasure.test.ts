import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { assertCleanFailure } from '../cli/cli-assertions.ts';
import { runCli } from '../helpers/cli.ts';
import type { OsticketBrowser } from '../helpers/osticket-browser.ts';
import {
  addBridgeKey,
  addOsticketUser,
  BRIDGE_PLUGIN,
  bridgeModeEnv,
  type Row,
} from '../helpers/osticket-ticket-rows.ts';
import {
  REAL_OSTICKET_SKIP,
  type RealOsticket,
  startRealOsticket,
} from '../helpers/real-osticket.ts';
import { useTestServer } from '../helpers/test-server.ts';

/**
 * Every row of every table of the install, as one JSON text: what an erasure must leave no trace
 * in. `unchanged` leaves out the feed's copy of osTicket's own history, which the test server's
 * feed reader adds to in the background whenever osTicket writes (decision 384): for comparing
 * the rows before and after a refused erasure.
 */
async function everyRow(osticket: RealOsticket, unchanged = false): Promise<string> {
  const tables = await osticket.query<{ name: string }>(
    'SELECT table_name AS name FROM information_schema.tables WHERE table_schema = DATABASE() ORDER BY table_name',
  );
  const rows: unknown[] = [];
  for (const { name } of tables) {
    if (unchanged && name === 'deskgate_event_positions') continue;
    const mirror =
      unchanged && name === 'deskgate_events' ? " WHERE event_id NOT LIKE 'evt\\_ost\\_%'" : '';
    rows.push(name, await osticket.query(`SELECT * FROM \`${name}\`${mirror}`));
  }
  return JSON.stringify(rows);
}

/** What osTicket keeps of a ticket's history: its row's fixed facts, its entries' and events' shape. */
async function history(osticket: RealOsticket, ticketId: number) {
  const [ticket] = await osticket.query<Row>(
    'SELECT number, status_id, dept_id, topic_id, staff_id, created, closed, lastupdate FROM ost_ticket WHERE ticket_id = ?',
    [ticketId],
  );
  const entries = await osticket.query<Row>(
    `SELECT e.id, e.type, e.staff_id, e.created FROM ost_thread_entry e
     JOIN ost_thread t ON t.id = e.thread_id WHERE t.object_type = 'T' AND t.object_id = ? ORDER BY e.id`,
    [ticketId],
  );
  const events = await osticket.query<Row>(
    `SELECT v.id, v.event_id, v.staff_id, v.timestamp FROM ost_thread_event v
     JOIN ost_thread t ON t.id = v.thread_id WHERE t.object_type = 'T' AND t.object_id = ? ORDER BY v.id`,
    [ticketId],
  );
  return { ticket, entries, events };
}

describe('users delete in osTicket mode, through the plugin and osTicket 1.18.1’s own objects', {
  skip: REAL_OSTICKET_SKIP,
}, () => {
  let osticket: RealOsticket;
  let admin: OsticketBrowser;
  const deskgateKey = 'E'.repeat(32);

  before(async () => {
    osticket = await startRealOsticket({ plugins: [BRIDGE_PLUGIN] });
    admin = await osticket.staffBrowser();
    await addBridgeKey(osticket, admin, deskgateKey);
  });
  after(async () => {
    await osticket?.stop();
  });

  const env = () => ({
    DESKGATE_DATABASE_URL: osticket.databaseUrl,
    ...bridgeModeEnv(osticket, deskgateKey),
  });
  const deskgate = useTestServer(() => ({
    database: osticket.databaseUrl,
    env: { ...env(), DESKGATE_OSTICKET_BRIDGE_STAFF_ID: '1' },
    ownKey: false,
  }));
  const call = (condition: string, parameters: Record<string, unknown>) =>
    deskgate.request(
      { query: 'ticket', condition, parameters },
      {
        method: 'POST',
        key: osticket.apiKey.key,
        headers: { 'Idempotency-Key': randomUUID() },
      },
    );

  /** A user with two tickets: one from osTicket's own API, one through deskgate, answered and closed. */
  async function customer(name: string) {
    const email = `${name.split(' ')[0]?.toLowerCase()}.${randomUUID().slice(0, 8)}@example.net`;
    const userId = await addOsticketUser(osticket, email, name);
    const words = {
      subject: `Refund for ${name}`,
      message: `Charged twice, card 4242, ${name}`,
      reply: `Dear ${name}, refund under way`,
      note: `Refunded ${name} by phone`,
    };
    const added = await call('add', {
      title: words.subject,
      subject: words.message,
      user_id: userId,
      topic_id: 1,
    });
    assert.equal(added.status, 200, added.text);
    const ticketId = Number(added.body?.data);
    const replied = await call('reply', { ticket_id: ticketId, body: words.reply, staff_id: 1 });
    assert.equal(replied.status, 200, replied.text);
    const closed = await call('close', {
      ticket_id: ticketId,
      body: words.note,
      staff_id: 1,
      status_id: 3,
    });
    assert.equal(closed.status, 200, closed.text);
    const tickets = await osticket.query<{ id: number }>(
      'SELECT ticket_id AS id FROM ost_ticket WHERE user_id = ? ORDER BY ticket_id',
      [userId],
    );
    return { userId, email, name, words, ticketIds: tickets.map((t) => Number(t.id)) };
  }

  test('without --anonymise-tickets a user with tickets is kept; with it osTicket keeps the tickets and their history, with no trace of the user', async () => {
    const erin = await customer('Erin Erasable');
    const otto = await customer('Otto Other');
    // A task on her ticket, made by osTicket's own Task::create as the administrator.
    const taskText = `Call ${erin.name} back`;
    const task = await osticket.runPhp(
      `$thisstaff = Staff::lookup(1);
       $t = Task::create(array('object_id' => ${erin.ticketIds[1]}, 'object_type' => 'T',
         'internal_formdata' => array('dept_id' => 1),
         'default_formdata' => array('title' => ${JSON.stringify(taskText)}),
         'description' => ${JSON.stringify(`${taskText} about the refund`)}));
       echo $t ? $t->getId() : 'failed';`,
    );
    assert.match(task, /^[0-9]+$/, task);
    assert.ok((await everyRow(osticket)).includes(`${taskText} about the refund`));
    // A third ticket through osTicket's own API, with an attachment named after her.
    const attachment = 'erin-erasable-passport.txt';
    const sent = await fetch(`${osticket.baseUrl}api/tickets.json`, {
      method: 'POST',
      headers: { 'x-api-key': osticket.apiKey.key },
      body: JSON.stringify({
        email: erin.email,
        name: erin.name,
        subject: 'Passport scan',
        message: 'Attached.',
        attachments: [
          { [attachment]: `data:text/plain;base64,${Buffer.from('passport').toString('base64')}` },
        ],
      }),
    });
    assert.equal(sent.status, 201, await sent.text());
    erin.ticketIds.push(
      Number(
        (
          await osticket.query<{ id: number }>(
            'SELECT MAX(ticket_id) AS id FROM ost_ticket WHERE user_id = ?',
            [erin.userId],
          )
        )[0]?.id,
      ),
    );
    assert.equal(
      (await osticket.query('SELECT id FROM ost_file WHERE name = ?', [attachment])).length,
      1,
      'osTicket kept the attachment',
    );
    // Erin writes on Otto's ticket too, as a collaborator (osTicket's own postMessage adds her).
    const collab = `I am ${erin.name}, a colleague of Otto's`;
    const posted = await osticket.runPhp(
      `$t = Ticket::lookup(${otto.ticketIds[1]});
       $e = $t->postMessage(array('userId' => ${erin.userId}, 'message' => ${JSON.stringify(collab)}), 'API', false);
       echo $e ? $e->getId() : 'failed';`,
    );
    assert.match(posted, /^[0-9]+$/, posted);
    const args = ['users', 'delete', String(erin.userId), '--staff', '1', '--yes', '--json'];

    const before = await everyRow(osticket, true);
    assertCleanFailure(
      await runCli(['users', 'delete', String(erin.userId), '--anonymise-tickets', '--yes'], env()),
      2,
      /acts as an agent with the permission to delete users: pass --staff ID/,
    );
    assertCleanFailure(
      await runCli(args, env()),
      1,
      new RegExp(`user ${erin.userId} is named by 3 ticket\\(s\\): pass --anonymise-tickets`),
    );
    assert.equal(await everyRow(osticket, true), before, 'the refusal changed nothing');

    const histories = await Promise.all(erin.ticketIds.map((id) => history(osticket, id)));
    // Event data naming no one (a status change, …) stays, on every ticket.
    const eventData = () =>
      osticket.query<Row>(
        `SELECT id, data FROM ost_thread_event WHERE data IS NOT NULL AND data NOT LIKE '%Erin Erasable%' ORDER BY id`,
      );
    const eventDataBefore = await eventData();
    assert.ok(eventDataBefore.length > 0);
    const result = await runCli([...args, '--anonymise-tickets'], env());
    assert.equal(result.code, 0, result.stderr);
    assert.deepEqual(JSON.parse(result.stdout), {
      id: erin.userId,
      deleted: true,
      forgotten: {
        'stored user/add answers': 0,
        'anonymised tickets': 3,
        // ticket/add's, reply's and close's, each sent with an Idempotency-Key.
        'stored ticket write answers': 3,
      },
    });

    // The tickets are there, with their numbers, statuses, times, entries and events.
    for (const [index, id] of erin.ticketIds.entries())
      assert.deepEqual(await history(osticket, id), histories[index]);
    const [placeholder] = await osticket.query<Row>(
      `SELECT u.id, u.name, e.address FROM ost_user u JOIN ost_user_email e ON e.id = u.default_email_id
       WHERE e.address = 'erased@erased.invalid'`,
    );
    assert.equal(placeholder?.name, '[erased]');
    const owners = await osticket.query<{ user_id: number }>(
      `SELECT DISTINCT user_id FROM ost_ticket WHERE ticket_id IN (${erin.ticketIds.join(',')})`,
    );
    assert.deepEqual(
      owners.map((o) => Number(o.user_id)),
      [Number(placeholder?.id)],
    );
    assert.deepEqual(
      await osticket.query('SELECT id FROM ost_user WHERE id = ?', [erin.userId]),
      [],
      'osTicket deleted the user',
    );

    assert.deepEqual(await eventData(), eventDataBefore);

    // No trace of the user anywhere in osTicket's tables (search index, form values, cdata, …).
    const everything = await everyRow(osticket);
    for (const text of [
      erin.name,
      erin.email,
      collab,
      attachment,
      taskText,
      ...Object.values(erin.words),
    ])
      assert.ok(
        !everything.includes(text),
        `osTicket's tables still hold ${JSON.stringify(text)}: ${everything.slice(Math.max(0, everything.indexOf(text) - 400), everything.indexOf(text) + 100)}`,
      );
    const [onOttos] = await osticket.query<Row>(
      'SELECT user_id, poster, body FROM ost_thread_entry WHERE id = ?',
      [Number(posted)],
    );
    assert.deepEqual(onOttos, {
      user_id: Number(placeholder?.id),
      poster: '[erased]',
      body: '[erased]',
    });
    const [taskRow] = await osticket.query<Row>(
      'SELECT t.number, c.title FROM ost_task t JOIN ost_task__cdata c ON c.task_id = t.id WHERE t.id = ?',
      [Number(task)],
    );
    assert.equal(taskRow?.title, '[erased]', 'the task stays, without its words');
    assert.deepEqual(
      await osticket.query('SELECT id FROM ost_thread_collaborator WHERE user_id = ?', [
        erin.userId,
      ]),
      [],
    );
    for (const text of [otto.name, otto.email, ...Object.values(otto.words)])
      assert.ok(everything.includes(text), `another user's ${text} went too`);

    // The staff panel shows the ticket, erased, and the search finds nothing of the user.
    const page = await admin.get(`scp/tickets.php?id=${erin.ticketIds[1]}`);
    assert.equal(page.status, 200);
    assert.match(page.text, /\[erased\]/);
    for (const text of [erin.name, erin.email, erin.words.reply])
      assert.ok(!page.text.includes(text), `the panel's ticket page shows ${text}`);
    const search = await admin.get(
      `scp/tickets.php?a=search&query=${encodeURIComponent('Erasable')}`,
    );
    assert.ok(!search.text.includes(erin.name), 'the panel search finds the user');

    // deskgate still answers the ticket, with its entries.
    const read = await deskgate.request(
      { query: 'ticket', condition: 'specific', parameters: { id: erin.ticketIds[1] } },
      { key: osticket.apiKey.key },
    );
    assert.equal(read.status, 200, read.text);
    assert.ok(!read.text.includes(erin.name));
    assert.match(read.text, /\[erased\]/);
  });

  test('a user without tickets is deleted by osTicket’s own User::delete, without the flag', async () => {
    const name = 'Nora Noticket';
    const email = `nora.${randomUUID().slice(0, 8)}@example.net`;
    const made = await osticket.runPhp(
      `echo User::fromVars(array('name' => ${JSON.stringify(name)}, 'email' => ${JSON.stringify(email)}))->getId();`,
    );
    const userId = Number(made);
    assert.ok(userId > 0, made);
    assert.ok((await everyRow(osticket)).includes(email));
    const result = await runCli(
      ['users', 'delete', String(userId), '--staff', '1', '--yes', '--json'],
      env(),
    );
    assert.equal(result.code, 0, result.stderr);
    assert.deepEqual(JSON.parse(result.stdout), {
      id: userId,
      deleted: true,
      forgotten: { 'stored user/add answers': 0 },
    });
    const everything = await everyRow(osticket);
    for (const text of [name, email]) assert.ok(!everything.includes(text), text);
    const audit = await osticket.query<Row>(
      "SELECT api_key_id, client_ip, operation, target_id FROM deskgate_audit_log WHERE operation = 'users delete' AND target_id = ?",
      [String(userId)],
    );
    assert.deepEqual(audit, [
      { api_key_id: 0, client_ip: 'cli', operation: 'users delete', target_id: String(userId) },
    ]);
  });

  test('a failure inside osTicket leaves every row as it was', async () => {
    const fay = await customer('Fay Failure');
    // osTicket's own User::delete fails at the end, after the tickets were anonymised.
    await osticket.query(
      `CREATE TRIGGER deskgate_test_keep_user BEFORE DELETE ON ost_user FOR EACH ROW
       BEGIN IF OLD.id = ${fay.userId} THEN SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'kept'; END IF; END`,
    );
    try {
      const before = await everyRow(osticket, true);
      const result = await runCli(
        ['users', 'delete', String(fay.userId), '--anonymise-tickets', '--staff', '1', '--yes'],
        env(),
      );
      assertCleanFailure(result, 1, /osTicket refused \(not_erased\): .*nothing changed/);
      assert.equal(await everyRow(osticket, true), before);
    } finally {
      await osticket.query('DROP TRIGGER deskgate_test_keep_user');
    }
  });

  test('an agent without osTicket’s permission to delete users is refused; nothing changes', async () => {
    const gus = await customer('Gus Guarded');
    const [agent] = await osticket.query<{ permissions: string }>(
      'SELECT permissions FROM ost_staff WHERE staff_id = 1',
    );
    const permissions = JSON.parse(agent?.permissions ?? '{}') as Record<string, unknown>;
    delete permissions['user.delete'];
    await osticket.query('UPDATE ost_staff SET permissions = ? WHERE staff_id = 1', [
      JSON.stringify(permissions),
    ]);
    try {
      const before = await everyRow(osticket, true);
      const result = await runCli(
        ['users', 'delete', String(gus.userId), '--anonymise-tickets', '--staff', '1', '--yes'],
        env(),
      );
      assertCleanFailure(
        result,
        1,
        /osTicket refused \(forbidden\): The agent may not delete users/,
      );
      assert.equal(await everyRow(osticket, true), before);
    } finally {
      await osticket.query('UPDATE ost_staff SET permissions = ? WHERE staff_id = 1', [
        agent?.permissions,
      ]);
    }
  });
});
