import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { describeEachDatabase } from '../../../test/helpers/each-database.ts';
import { useTestServer } from '../../../test/helpers/test-server.ts';
import { addAgent, addUser, ticketAddBody } from '../../../test/helpers/tickets.ts';

describeEachDatabase('ticket/reply and ticket/close', (database) => {
  const server = useTestServer({ database });
  let userId: number;
  let agentId: number;

  before(async () => {
    userId = await addUser(server.store);
    agentId = await addAgent(server.store, 'Alex Agent');
  });

  async function open(): Promise<string> {
    const reply = await server.request(ticketAddBody(userId), { method: 'POST' });
    assert.equal(reply.status, 200, reply.text);
    return String(reply.body?.data);
  }
  const write = (condition: string, parameters: Record<string, unknown>, method = 'POST') =>
    server.request({ query: 'ticket', condition, parameters }, { method });
  const read = async (id: string, key?: string) => {
    const reply = await server.request(
      { query: 'ticket', condition: 'specific', parameters: { id } },
      key === undefined ? {} : { key },
    );
    assert.equal(reply.status, 200, reply.text);
    return (
      (reply.body?.data as { tickets: Record<string, unknown>[] } | undefined)?.tickets[0] ?? {}
    );
  };

  test('a reply answers the entry id; the ticket is answered and, unassigned, the agent’s', async () => {
    const id = await open();
    const reply = await write('reply', {
      ticket_id: id,
      body: 'On <b>my</b> way.',
      staff_id: agentId,
    });
    assert.equal(reply.status, 200, reply.text);
    const ticket = await read(id);
    const entries = ticket.entries as Record<string, string>[];
    assert.deepEqual(
      entries.map((e) => e.entry_type),
      ['M', 'R'],
    );
    const response = entries[1] ?? {};
    assert.equal(response.entry_id, reply.body?.data);
    assert.equal(response.entry_pid, entries[0]?.entry_id);
    assert.equal(response.entry_staff_id, String(agentId));
    assert.equal(response.entry_poster, 'Alex Agent');
    assert.equal(response.entry_body, 'On &lt;b&gt;my&lt;/b&gt; way.');
    assert.equal(ticket.isanswered, '1');
    assert.equal(ticket.staff_id, String(agentId));
  });

  test('reply: unknown ticket or agent → 400 naming it; PUT accepted', async () => {
    const id = await open();
    for (const [parameters, field] of [
      [{ ticket_id: 999_999, body: 'x', staff_id: agentId }, 'parameters.ticket_id'],
      [{ ticket_id: id, body: 'x', staff_id: 999_999 }, 'parameters.staff_id'],
    ] as const) {
      const reply = await write('reply', parameters, 'PUT');
      assert.equal(reply.status, 400, reply.text);
      assert.deepEqual(
        reply.body?.errors?.map((e) => e.field),
        [field],
      );
    }
    assert.equal(((await read(id)).entries as unknown[]).length, 1);
  });

  test('close: the closed-state status, closed time, closing agent, the comment a note only --notes keys see', async () => {
    const id = await open();
    const reply = await write('close', {
      ticket_id: id,
      body: 'Fire is out.',
      staff_id: agentId,
      status_id: 3,
      dept_id: 1,
      team_id: 0,
    });
    assert.equal(reply.status, 200, reply.text);
    assert.equal(reply.body?.data, id);
    const ticket = await read(id);
    assert.equal(ticket.status_id, '3');
    assert.equal(typeof ticket.closed, 'string');
    assert.equal(ticket.lastupdate, ticket.closed);
    assert.equal(ticket.staff_id, String(agentId));
    assert.deepEqual(
      (ticket.entries as Record<string, string>[]).map((e) => e.entry_type),
      ['M'],
      'no internal note without --notes',
    );
    const { key } = await server.createKey({ scopes: ['tickets:read'], notes: true });
    const withNotes = await read(id, key);
    const entries = withNotes.entries as Record<string, string>[];
    assert.deepEqual(
      entries.map((e) => [e.entry_type, e.entry_title, e.entry_body]),
      [
        ['M', 'Printer on fire', 'The printer on floor 2 is on fire.'],
        ['N', 'Status Changed', 'Fire is out.'],
      ],
    );
  });

  test('close: an open status, an unknown one, or fields that contradict the ticket → 400, nothing changed', async () => {
    const id = await open();
    for (const [extra, field] of [
      [{ status_id: 1 }, 'parameters.status_id'],
      [{ status_id: 99 }, 'parameters.status_id'],
      [{ status_id: 3, dept_id: 99 }, 'parameters.dept_id'],
      [{ status_id: 3, topic_id: 2 }, 'parameters.topic_id'],
      [{ status_id: 3, team_id: 5 }, 'parameters.team_id'],
      [{ status_id: 3, username: 'somebody' }, 'parameters.username'],
      [{ status_id: 3, staff_id: 999_999 }, 'parameters.staff_id'],
      [{ status_id: 3, ticket_id: 999_999 }, 'parameters.ticket_id'],
    ] as const) {
      const reply = await write('close', { ticket_id: id, staff_id: agentId, ...extra });
      assert.equal(reply.status, 400, `${JSON.stringify(extra)} ${reply.text}`);
      assert.deepEqual(
        reply.body?.errors?.map((e) => e.field),
        [field],
      );
    }
    const ticket = await read(id);
    assert.equal(ticket.status_id, '1');
    assert.equal(ticket.closed, null);
  });
});
