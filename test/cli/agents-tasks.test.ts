import assert from 'node:assert/strict';
import { test } from 'node:test';
import { runCli } from '../helpers/cli.ts';
import { describeEachDatabase, describeWithDatabase, SQLITE } from '../helpers/each-database.ts';
import { useTestServer } from '../helpers/test-server.ts';
import { addUser, ticketAddBody } from '../helpers/tickets.ts';
import { assertCleanFailure, runCliJson, runCliText } from './cli-assertions.ts';

describeEachDatabase('deskgate agents and tasks', (database) => {
  const server = useTestServer({ database });
  const db = () => ['--database', database.url];

  test('agents add makes an agent ticket/reply can answer as; agents list shows it', async () => {
    const agent = await runCliJson<{
      id: number;
      username: string;
      dept_id: number;
      active: boolean;
    }>([
      'agents',
      'add',
      '--username',
      'alex',
      '--name',
      'Alex Agent',
      '--email',
      'alex@example.com',
      ...db(),
    ]);
    assert.equal(agent.username, 'alex');
    assert.equal(agent.dept_id, 1);
    assert.equal(agent.active, true);
    const listed = await runCliJson<{ id: number }[]>(['agents', 'list', ...db()]);
    assert.deepEqual(
      listed.map((a) => a.id),
      [agent.id],
    );
    assert.match(await runCliText(['agents', 'list', ...db()]), /alex\s+Alex Agent/);

    const userId = await addUser(server.store);
    const opened = await server.request(ticketAddBody(userId), { method: 'POST' });
    const reply = await server.request(
      {
        query: 'ticket',
        condition: 'reply',
        parameters: { ticket_id: opened.body?.data, body: 'On my way.', staff_id: agent.id },
      },
      { method: 'POST' },
    );
    assert.equal(reply.status, 200, reply.text);

    const task = await runCliJson<{ id: number; ticket_id: number; number: string }>([
      'tasks',
      'add',
      '--title',
      'Replace toner',
      '--ticket',
      String(opened.body?.data),
      '--staff',
      String(agent.id),
      ...db(),
    ]);
    assert.equal(task.ticket_id, Number(opened.body?.data));
    const notes = await server.createKey({ scopes: ['tickets:read'], notes: true });
    const read = await server.request(
      { query: 'tasks', condition: 'specific', parameters: { id: task.id } },
      { key: notes.key },
    );
    assert.equal(
      (read.body?.data as { tasks: { title: string }[] } | undefined)?.tasks[0]?.title,
      'Replace toner',
    );
  });

  test('input refused through the data: one line, exit 2, naming the option', async () => {
    assertCleanFailure(
      await runCli([
        'agents',
        'add',
        '--username',
        'alex',
        '--name',
        'Again',
        '--email',
        'a@b.c',
        ...db(),
      ]),
      2,
      /--username/,
    );
    assertCleanFailure(
      await runCli([
        'agents',
        'add',
        '--username',
        'x',
        '--name',
        'X',
        '--email',
        'x@y.z',
        '--dept',
        '99',
        ...db(),
      ]),
      2,
      /--dept/,
    );
    assertCleanFailure(
      await runCli(['tasks', 'add', '--title', 'T', '--ticket', '999999', ...db()]),
      2,
      /--ticket/,
    );
  });
});

// Refused before the database is opened: the suite's SQLite file is never even created, so a
// command that opened it first would fail another way (exit 1, no such file).
describeWithDatabase('deskgate tasks add: argument checks', SQLITE, (database) => {
  test('tasks add without --title: one line, exit 2, naming the option', async () => {
    assertCleanFailure(await runCli(['tasks', 'add', '--database', database.url]), 2, /--title/);
  });
});
