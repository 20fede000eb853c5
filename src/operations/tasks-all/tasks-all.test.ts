import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { describeEachDatabaseKind } from '../../../test/helpers/each-database.ts';
import { type ListPage, listPageOf, type Reply } from '../../../test/helpers/http.ts';
import { useTicketReadSuite } from '../../../test/helpers/ticket-read-suite.ts';
import { RejectedValueError } from '../../data/store.ts';
import { tasks } from '../../data/tasks/tasks.ts';

type Page = ListPage<'tasks'>;
const pageOf = (reply: Reply): Page => listPageOf(reply, 'tasks');

describeEachDatabaseKind('tasks/all', (database) => {
  /** Tasks are agent-internal: their reads need the notes grant (decision 322). */
  const suite = useTicketReadSuite(database, { env: { DESKGATE_MAX_LIST: '4' }, notes: true });
  let ticketId: number;
  const ofTicket: number[] = [];
  const loose: number[] = [];

  before(async () => {
    ticketId = await suite.addTicket({ title: 'Printer on fire' });
    for (let i = 0; i < 3; i++) {
      ofTicket.push(
        await suite.addTask({ ticketId, title: `Task ${i}`, description: `Step ${i}` }),
      );
    }
    for (let i = 0; i < 3; i++) {
      loose.push(await suite.addTask({ ticketId: 0, title: `Loose ${i}`, description: '' }));
    }
  });

  const list = (sort: string, parameters: Record<string, unknown>, key = suite.notesKey) =>
    suite.request({ query: 'tasks', condition: 'all', sort, parameters }, key);
  const ids = (page: Page) => page.tasks.map((task) => Number(task.task_id));

  test('byTicket: the tasks of one ticket, each with its own id and number', async () => {
    const page = pageOf(await list('byTicket', { ticket_id: ticketId }));
    assert.deepEqual(ids(page), ofTicket);
    assert.deepEqual(
      page.tasks.map((task) => [task.title, task.description, task.ticket_id]),
      [0, 1, 2].map((i) => [`Task ${i}`, `Step ${i}`, String(ticketId)]),
    );
    assert.equal(new Set(page.tasks.map((task) => task.number)).size, 3);
  });

  test('creationDate pages; without limit more than DESKGATE_MAX_LIST → 400 too_many_results', async () => {
    const range = { start_date: '2000-01-01', end_date: '2999-12-31' };
    const refused = await list('creationDate', range);
    assert.equal(refused.status, 400);
    assert.equal(refused.body?.code, 'too_many_results');
    const first = pageOf(await list('creationDate', { ...range, limit: 4 }));
    assert.equal(typeof first.next, 'string');
    const second = pageOf(await list('creationDate', { ...range, limit: 4, after: first.next }));
    assert.equal(second.next, undefined);
    assert.deepEqual([...ids(first), ...ids(second)], [...ofTicket, ...loose]);
    const oneTicket = pageOf(await list('creationDate', { ...range, ticket_id: ticketId }));
    assert.deepEqual(ids(oneTicket), ofTicket);
  });

  test('without the notes grant, even with every scope → 403 insufficient_scope naming it', async () => {
    const reply = await list('byTicket', { ticket_id: ticketId }, suite.ticketsKey);
    assert.equal(reply.status, 403, reply.text);
    assert.equal(reply.body?.code, 'insufficient_scope');
    assert.match(String(reply.body?.data), /notes grant/);
    assert.doesNotMatch(reply.text, /Step 0/);
  });

  test('ticket_id "1 OR 1=1" → 400 naming parameters.ticket_id', async () => {
    const reply = await list('byTicket', { ticket_id: '1 OR 1=1' });
    assert.equal(reply.status, 400, reply.text);
    assert.deepEqual(
      reply.body?.errors?.map((e) => e.field),
      ['parameters.ticket_id'],
    );
  });

  // deskgate's own store writes tasks; in osTicket mode only osTicket does.
  if (database.kind !== 'osticket') {
    test('a task names an existing ticket, department and agent', async () => {
      const server = suite.server;
      for (const [task, field] of [
        [{ ticketId: 999_999, deptId: 1, staffId: 0 }, 'ticket_id'],
        [{ ticketId: 0, deptId: 99, staffId: 0 }, 'dept_id'],
        [{ ticketId: 0, deptId: 1, staffId: 999_999 }, 'staff_id'],
      ] as const) {
        await assert.rejects(
          server.store.data(tasks).createTask({ ...task, title: 'x', description: '' }),
          (error: unknown) => error instanceof RejectedValueError && error.field === field,
        );
      }
    });
  }
});
