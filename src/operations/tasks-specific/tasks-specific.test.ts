import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { describeEachDatabase } from '../../../test/helpers/each-database.ts';
import { useTestServer } from '../../../test/helpers/test-server.ts';
import { addAgent, addUser, ticketAddBody } from '../../../test/helpers/tickets.ts';
import { tasks } from '../../data/tasks/tasks.ts';

interface Answer {
  tasks: Record<string, string>[];
}

describeEachDatabase('tasks/specific', (database) => {
  const server = useTestServer({ database });
  /** Tasks are agent-internal: their reads need the notes grant (decision 322). */
  let notesKey: string;
  let ofTicket: number;
  let loose: number;

  before(async () => {
    notesKey = (await server.createKey({ scopes: ['tickets:read'], notes: true })).key;
    const userId = await addUser(server.store);
    const agentId = await addAgent(server.store);
    const reply = await server.request(ticketAddBody(userId), { method: 'POST' });
    const ticketId = Number(reply.body?.data);
    ({ id: ofTicket } = await server.store.data(tasks).createTask({
      ticketId,
      deptId: 1,
      staffId: agentId,
      title: 'Task 0',
      description: 'Step 0',
    }));
    ({ id: loose } = await server.store
      .data(tasks)
      .createTask({ ticketId: 0, deptId: 1, staffId: 0, title: 'Loose 1', description: '' }));
  });

  const specific = (id: number, key?: string) =>
    server.request(
      { query: 'tasks', condition: 'specific', parameters: { id } },
      key === undefined ? {} : { key },
    );

  test('tasks/specific by id; unknown → 204', async () => {
    const reply = await specific(loose, notesKey);
    assert.equal(reply.status, 200, reply.text);
    const data = reply.body?.data as Answer;
    assert.equal(data.tasks[0]?.title, 'Loose 1');
    assert.equal(data.tasks[0]?.ticket_id, '0');
    const missing = await specific(999_999, notesKey);
    assert.equal(missing.status, 204);
  });

  test('without the notes grant, even with every scope → 403 insufficient_scope naming it', async () => {
    const reply = await specific(ofTicket);
    assert.equal(reply.status, 403, reply.text);
    assert.equal(reply.body?.code, 'insufficient_scope');
    assert.match(String(reply.body?.data), /notes grant/);
    assert.doesNotMatch(reply.text, /Step 0/);
  });
});
