import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { tasks } from '../../src/data/tasks/tasks.ts';
import type { OsticketBrowser } from '../helpers/osticket-browser.ts';
import {
  REAL_OSTICKET_SKIP,
  type RealOsticket,
  startRealOsticket,
} from '../helpers/real-osticket.ts';
import { useTestServer } from '../helpers/test-server.ts';

const skip = REAL_OSTICKET_SKIP;

const CARD = '4111 1111 1111 1111';
const NOTE = 'Internal: the customer is on the watch list';

interface Entry {
  entry_id: string;
  entry_type: string;
  entry_body: string;
}

/**
 * What osTicket's staff panel hides, deskgate does not answer (issue 32, item 4): an entry an
 * agent edited (the original keeps flags 0x4) and, through tasks, internal notes.
 */
describe('hidden entries and tasks, against a real osTicket 1.18.1', { skip }, () => {
  let osticket: RealOsticket;
  let admin: OsticketBrowser;
  let ticketId: number;
  let messageId: number;
  let editedId: number;
  let noteId: number;
  let fromNote: number;
  let withoutDescription: number;

  /** The staff panel's lock, as its JavaScript takes one before a post. */
  const lockCode = async (id: number) => {
    const lock = await admin.postAjax(`scp/ajax.php/lock/ticket/${id}`, {});
    return (JSON.parse(lock.text) as { code: string }).code;
  };

  /** Create Task, as the thread entry's "Create Task" action (GET fills the form, POST sends it). */
  const createTaskFrom = async (entryId: number, fields: Record<string, string>) => {
    const path = `scp/ajax.php/tickets/${ticketId}/thread/${entryId}/create_task`;
    const form = await admin.get(path);
    assert.equal(form.status, 200, form.text.slice(0, 300));
    const created = await admin.postAjax(path, { dept_id: '1', ...fields });
    const problems = created.text.match(/<[^>]*class="error"[^>]*>[^<]*/g) ?? [];
    assert.equal(created.status, 201, problems.join('\n'));
    // osTicket answers 201 (its dialog's signal) but passes the id as an int, which
    // Http::response does not print: the new task is the latest.
    const [task] = await osticket.query<{ id: number }>('SELECT MAX(id) AS id FROM ost_task');
    const id = Number(task?.id);
    return id;
  };

  before(async () => {
    osticket = await startRealOsticket();
    admin = await osticket.staffBrowser();
    // The customer writes in through osTicket's own API, with a card number in the message.
    const opened = await fetch(`${osticket.baseUrl}api/tickets.json`, {
      method: 'POST',
      headers: { 'x-api-key': osticket.apiKey.key, 'content-type': 'application/json' },
      body: JSON.stringify({
        email: 'carla@example.net',
        name: 'Carla Card',
        subject: 'Payment failed',
        message: `data:text/plain,My card ${CARD} was refused.`,
      }),
    });
    assert.equal(opened.status, 201, await opened.clone().text());
    const [ticket] = await osticket.query<{ ticket_id: number }>(
      'SELECT ticket_id FROM ost_ticket WHERE number = ?',
      [await opened.text()],
    );
    ticketId = Number(ticket?.ticket_id);
    const [message] = await osticket.query<{ id: number }>(
      `SELECT e.id FROM ost_thread_entry e JOIN ost_thread t ON t.id = e.thread_id
       WHERE t.object_type = 'T' AND t.object_id = ? AND e.type = 'M'`,
      [ticketId],
    );
    messageId = Number(message?.id);

    // An agent removes the card number with the panel's "Edit" action on the message.
    await admin.get(`scp/tickets.php?id=${ticketId}`);
    const edited = await admin.postAjax(
      `scp/ajax.php/tickets/${ticketId}/thread/${messageId}/edit`,
      { title: '', body: 'My card [removed] was refused.' },
    );
    assert.equal(edited.status, 201, edited.text.slice(0, 500));
    editedId = (JSON.parse(edited.text) as { new_id: number }).new_id;

    // An internal note, then "Create Task" on it: its text becomes the task's description.
    const code = await lockCode(ticketId);
    await admin.get(`scp/tickets.php?id=${ticketId}`);
    await admin.postForm(`scp/tickets.php?id=${ticketId}`, {
      id: String(ticketId),
      a: 'postnote',
      lockCode: code,
      title: 'Watch list',
      note: NOTE,
    });
    const [note] = await osticket.query<{ id: number }>(
      `SELECT e.id FROM ost_thread_entry e JOIN ost_thread t ON t.id = e.thread_id
       WHERE t.object_type = 'T' AND t.object_id = ? AND e.type = 'N' AND e.body LIKE ?`,
      [ticketId, `%${NOTE}%`],
    );
    noteId = Number(note?.id);
    assert.ok(noteId > 0, 'the panel posted the note');
    await admin.get(`scp/tickets.php?id=${ticketId}`);
    fromNote = await createTaskFrom(noteId, { title: 'Check the watch list', description: NOTE });
    // The panel requires a description; osTicket's own Task::create (plugins, imports) does not:
    // such a task has no message, and its first entry is an agent's note.
    withoutDescription = Number(
      await osticket.runPhp(`
        $thisstaff = Staff::lookup(1);
        $task = Task::create([
          'object_id' => ${ticketId},
          'object_type' => 'T',
          'default_formdata' => ['title' => 'Call back'],
          'internal_formdata' => ['dept_id' => 1],
          'description' => '',
          'staffId' => 1,
          'poster' => $thisstaff,
        ]);
        $errors = [];
        $task->postNote(['title' => 'Private', 'note' => '${NOTE}'], $errors, $thisstaff);
        echo $task->getId();`),
    );
    assert.ok(withoutDescription > 0);
  });
  after(async () => {
    await osticket?.stop();
  });

  const deskgate = useTestServer(() => ({
    database: osticket.databaseUrl,
    env: { DESKGATE_SCHEMA: 'osticket', DESKGATE_TABLE_PREFIX: 'ost_' },
    ownKey: false,
  }));

  test('osTicket hid the original (flags 0x4) and shows the edit in its place', async () => {
    const rows = await osticket.query<{ id: number; flags: number }>(
      'SELECT id, flags FROM ost_thread_entry WHERE id IN (?, ?) ORDER BY id',
      [messageId, editedId],
    );
    assert.deepEqual(
      rows.map((row) => [row.id, Number(row.flags) & 0x4]),
      [
        [messageId, 0x4],
        [editedId, 0],
      ],
    );
    const page = await admin.get(`scp/tickets.php?id=${ticketId}`);
    assert.doesNotMatch(page.text, /4111 1111/);
    assert.match(page.text, /\[removed\]/);
  });

  for (const [name, parameters] of [
    ['ticket/specific', () => ({ id: ticketId })],
    ['ticket/all', () => ({ start_date: '2000-01-01', end_date: '2999-12-31' })],
  ] as const) {
    test(`${name} answers the edited message, never the hidden original`, async () => {
      const [, condition] = name.split('/');
      const reply = await deskgate.request(
        { query: 'ticket', condition, parameters: parameters() },
        { key: osticket.apiKey.key },
      );
      assert.equal(reply.status, 200, reply.text);
      assert.doesNotMatch(reply.text, /4111/);
      const data = reply.body?.data as { tickets: { ticket_id: string; entries: Entry[] }[] };
      const ticket = data.tickets.find((one) => Number(one.ticket_id) === ticketId);
      assert.deepEqual(
        ticket?.entries.map((entry) => [Number(entry.entry_id), entry.entry_type]),
        [[editedId, 'M']],
      );
      assert.match(ticket?.entries[0]?.entry_body ?? '', /\[removed\]/);
    });
  }

  test('tasks/all and tasks/specific need the notes grant: an osTicket key without it → 403', async () => {
    for (const [condition, sort, parameters] of [
      ['specific', undefined, { id: fromNote }],
      ['all', 'byTicket', { ticket_id: ticketId }],
    ] as const) {
      const reply = await deskgate.request(
        { query: 'tasks', condition, sort, parameters },
        { key: osticket.apiKey.key },
      );
      assert.equal(reply.status, 403, reply.text);
      assert.equal(reply.body?.code, 'insufficient_scope');
      assert.match(String(reply.body?.data), /notes grant/);
      assert.doesNotMatch(reply.text, /watch list/);
    }
  });

  test("a task's description is its message entry: the note's copy when made so, never a note", async () => {
    // Read through deskgate's own store on the real database (the HTTP read needs a notes grant,
    // which osTicket keys get only from `deskgate osticket keys grant`, issue 32 item 1).
    const read = deskgate.store.data(tasks);
    assert.match((await read.findTask(fromNote))?.description ?? '', new RegExp(NOTE));
    const bare = await read.findTask(withoutDescription);
    assert.equal(bare?.title, 'Call back');
    assert.equal(bare?.description, '');
    // osTicket's own thread of that task: no message, only the agent's note.
    const entries = await osticket.query<{ type: string }>(
      `SELECT e.type FROM ost_thread_entry e JOIN ost_thread t ON t.id = e.thread_id
       WHERE t.object_type = 'A' AND t.object_id = ?`,
      [withoutDescription],
    );
    assert.deepEqual(
      entries.map((entry) => entry.type),
      ['N'],
    );
    const listed = await read.listTasks({
      from: undefined,
      to: undefined,
      after: undefined,
      ticketId,
      limit: 10,
    });
    assert.deepEqual(
      listed.map((task) => [task.id, task.description.includes(NOTE)]),
      [
        [fromNote, true],
        [withoutDescription, false],
      ],
    );
    assert.equal(listed[1]?.description, '');
  });

  const writer = useTestServer(() => ({
    database: osticket.databaseUrl,
    env: {
      DESKGATE_SCHEMA: 'osticket',
      DESKGATE_TABLE_PREFIX: 'ost_',
      DESKGATE_OSTICKET_URL: osticket.baseUrl,
      DESKGATE_OSTICKET_API_KEY: osticket.apiKey.key,
    },
    ownKey: false,
  }));

  test('ticket/add sends osTicket plain text whatever its prefix: `data:text/html,` stays text', async () => {
    const [carla] = await osticket.query<{ user_id: number }>(
      'SELECT user_id FROM ost_ticket WHERE ticket_id = ?',
      [ticketId],
    );
    const message = 'data:text/html,<b>bold</b><img src=x onerror=alert(1)>';
    const reply = await writer.request(
      {
        query: 'ticket',
        condition: 'add',
        parameters: { title: 'Markup <i>test</i>', subject: message, user_id: carla?.user_id },
      },
      { method: 'POST', key: osticket.apiKey.key },
    );
    assert.equal(reply.status, 200, reply.text);
    const [entry] = await osticket.query<{ format: string; body: string }>(
      `SELECT e.format, e.body FROM ost_thread_entry e JOIN ost_thread t ON t.id = e.thread_id
       WHERE t.object_type = 'T' AND t.object_id = ? AND e.type = 'M'`,
      [Number(reply.body?.data)],
    );
    assert.equal(entry?.format, 'text');
    assert.ok(entry?.body.startsWith('data:text/html,'), entry?.body);
    const read = await writer.request(
      { query: 'ticket', condition: 'specific', parameters: { id: Number(reply.body?.data) } },
      { key: osticket.apiKey.key },
    );
    const ticket = (read.body?.data as { tickets: { subject: string }[] } | undefined)?.tickets[0];
    assert.equal(ticket?.subject, 'Markup test');
  });
});
