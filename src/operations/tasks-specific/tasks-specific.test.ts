import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { describeEachDatabaseKind } from '../../../test/helpers/each-database.ts';
import { useTicketReadSuite } from '../../../test/helpers/ticket-read-suite.ts';
import {
  insertOsticketTask,
  insertOsticketTicket,
} from '../../../test/osticket/osticket-ticket-rows.ts';

interface Answer {
  tasks: Record<string, string | null>[];
}

describeEachDatabaseKind('tasks/specific', (database) => {
  /** Tasks are agent-internal: their reads need the notes grant (decision 322). */
  const suite = useTicketReadSuite(database, { notes: true });
  let ofTicket: number;
  let loose: number;

  const specific = (id: number, key = suite.notesKey) =>
    suite.request({ query: 'tasks', condition: 'specific', parameters: { id } }, key);

  if (database.kind === 'osticket') {
    const REPLIED = '2026-11-25 09:00:00';
    let ticketId: number;
    let taskId: number;

    // First, while the ids are free: a task whose id is its ticket's.
    before(async () => {
      const osticket = database.osticket;
      assert.ok(osticket);
      const [user] = await osticket.query<{ id: number }>('SELECT MIN(id) AS id FROM ost_user');
      ticketId = await insertOsticketTicket(osticket, {
        userId: Number(user?.id),
        number: '304366',
        statusId: 1,
        created: '2026-11-25 08:37:00',
        replied: REPLIED,
      });
      // With a thread of its own, beside the ticket's of the same object_id: the original mixed them.
      taskId = await insertOsticketTask(osticket, {
        id: ticketId,
        ticketId,
        number: '1',
        title: 'Replace toner',
        created: REPLIED,
      });
    });

    test('the task’s own id, title from task__cdata, description from its own thread', async () => {
      const reply = await specific(taskId);
      assert.equal(reply.status, 200, reply.text);
      assert.deepEqual((reply.body?.data as Answer | undefined)?.tasks, [
        {
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
        },
      ]);
      const byTicket = await suite.request(
        { query: 'tasks', condition: 'all', sort: 'byTicket', parameters: { ticket_id: ticketId } },
        suite.notesKey,
      );
      assert.equal(byTicket.status, 200, byTicket.text);
      assert.deepEqual(
        (byTicket.body?.data as Answer | undefined)?.tasks.map((task) => task.task_id),
        [String(taskId)],
      );
    });
  }

  before(async () => {
    const ticketId = await suite.addTicket({ title: 'Printer on fire' });
    ofTicket = await suite.addTask({ ticketId, title: 'Task 0', description: 'Step 0' });
    loose = await suite.addTask({ ticketId: 0, title: 'Loose 1', description: '' });
  });

  test('tasks/specific by id; unknown → 204', async () => {
    const reply = await specific(loose);
    assert.equal(reply.status, 200, reply.text);
    const data = reply.body?.data as Answer;
    assert.equal(data.tasks[0]?.title, 'Loose 1');
    assert.equal(data.tasks[0]?.ticket_id, '0');
    const missing = await specific(999_999);
    assert.equal(missing.status, 204);
  });

  test('without the notes grant, even with every scope → 403 insufficient_scope naming it', async () => {
    const reply = await specific(ofTicket, suite.ticketsKey);
    assert.equal(reply.status, 403, reply.text);
    assert.equal(reply.body?.code, 'insufficient_scope');
    assert.match(String(reply.body?.data), /notes grant/);
    assert.doesNotMatch(reply.text, /Step 0/);
  });
});
