import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { describeEachDatabase } from '../../../test/helpers/each-database.ts';
import { useTestServer } from '../../../test/helpers/test-server.ts';
import { addAgent, addUser, ticketAddBody } from '../../../test/helpers/tickets.ts';

describeEachDatabase('ticket/reply', (database) => {
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

  test('reply with an Idempotency-Key: two calls, one entry, the same answer; another body → 422', async () => {
    const id = await open();
    const headers = { 'Idempotency-Key': `reply-${id}` };
    const parameters = { ticket_id: id, body: 'On my way.', staff_id: agentId };
    const send = (body: Record<string, unknown>) =>
      server.request(
        { query: 'ticket', condition: 'reply', parameters: body },
        { method: 'POST', headers },
      );
    const first = await send(parameters);
    const again = await send(parameters);
    assert.equal(first.status, 200, first.text);
    assert.equal(again.status, 200, again.text);
    assert.equal(again.body?.data, first.body?.data);
    assert.deepEqual(
      ((await read(id)).entries as Record<string, string>[]).map((e) => e.entry_type),
      ['M', 'R'],
    );
    const other = await send({ ...parameters, body: 'Another reply.' });
    assert.equal(other.status, 422, other.text);
    assert.equal(other.body?.code, 'idempotency_mismatch');
    assert.equal(((await read(id)).entries as unknown[]).length, 2);
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

  test('a key acts only as its agents: staff_id outside them → 403 naming the fix; one agent may be left out', async () => {
    const other = await addAgent(server.store, 'Olga Other');
    const id = await open();
    const { key } = await server.createKey({
      scopes: ['tickets:read', 'tickets:write'],
      agents: [agentId],
    });
    const refused = await server.request(
      {
        query: 'ticket',
        condition: 'reply',
        parameters: { ticket_id: id, body: 'Hi', staff_id: other },
      },
      { method: 'POST', key },
    );
    assert.equal(refused.status, 403, refused.text);
    assert.equal(refused.body?.code, 'agent_not_allowed');
    assert.match(String(refused.body?.data), new RegExp(`deskgate keys create .*--agent ${other}`));
    assert.equal(((await read(id)).entries as unknown[]).length, 1, 'nothing written');
    // Its one agent: staff_id may be left out.
    const replied = await server.request(
      { query: 'ticket', condition: 'reply', parameters: { ticket_id: id, body: 'On it.' } },
      { method: 'POST', key },
    );
    assert.equal(replied.status, 200, replied.text);
    const entries = (await read(id)).entries as Record<string, string>[];
    assert.equal(entries.at(-1)?.entry_staff_id, String(agentId));
  });

  test('a key of no agent opens tickets but replies as no one; several agents need staff_id', async () => {
    const { key: none } = await server.createKey({ scopes: ['tickets:read', 'tickets:write'] });
    const opened = await server.request(ticketAddBody(userId), { method: 'POST', key: none });
    assert.equal(opened.status, 200, opened.text);
    const id = String(opened.body?.data);
    for (const parameters of [
      { ticket_id: id, body: 'Hi', staff_id: agentId },
      { ticket_id: id, body: 'Hi' },
    ]) {
      const refused = await server.request(
        { query: 'ticket', condition: 'reply', parameters },
        { method: 'POST', key: none },
      );
      assert.equal(refused.status, 403, refused.text);
      assert.equal(refused.body?.code, 'agent_not_allowed');
    }
    const other = await addAgent(server.store, 'Sam Second');
    const { key: two } = await server.createKey({
      scopes: ['tickets:read', 'tickets:write'],
      agents: [agentId, other],
    });
    const ambiguous = await server.request(
      { query: 'ticket', condition: 'reply', parameters: { ticket_id: id, body: 'Hi' } },
      { method: 'POST', key: two },
    );
    assert.equal(ambiguous.status, 400, ambiguous.text);
    assert.deepEqual(
      ambiguous.body?.errors?.map((e) => e.field),
      ['parameters.staff_id'],
    );
  });
});
