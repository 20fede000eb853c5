import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { describeEachDatabaseKind } from '../../../test/helpers/each-database.ts';
import {
  insertReferenceTickets,
  type ReferenceTickets,
  useTicketReadSuite,
} from '../../../test/helpers/ticket-read-suite.ts';

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
    let reference: ReferenceTickets;

    // First, while the ids are free: a task whose id is its ticket's.
    before(async () => {
      assert.ok(database.osticket);
      reference = await insertReferenceTickets(database.osticket, suite.userId);
    });

    test('the task’s own id, title from task__cdata, description from its own thread', async () => {
      const { taskId, full: ticketId, replied } = reference;
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
          created: replied,
          updated: replied,
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
