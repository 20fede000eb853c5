import assert from 'node:assert/strict';
import { test } from 'node:test';
import { describeEachDatabase } from '../../../test/helpers/each-database.ts';
import { entriesOf, useTicketChangeSuite } from '../../../test/helpers/ticket-changes.ts';

describeEachDatabase('ticket/close', (database) => {
  const suite = useTicketChangeSuite(database);
  const { server } = suite;

  test('close with an Idempotency-Key: two calls, one close, the same answer', async () => {
    const id = await suite.open();
    const headers = { 'Idempotency-Key': `close-${id}` };
    const parameters = { ticket_id: id, staff_id: suite.agentId, status_id: 3, body: 'Done.' };
    const replies = [];
    for (let n = 0; n < 2; n++) {
      replies.push(await suite.write('close', parameters, { headers }));
    }
    assert.deepEqual(
      replies.map((r) => [r.status, r.body?.data]),
      [
        [200, id],
        [200, id],
      ],
    );
    assert.deepEqual(
      entriesOf(await suite.read(id)).map(([type]) => type),
      ['M', 'N'],
      'one note: the close ran once',
    );
  });

  test('close: the closed-state status, closed time, closing agent, the comment a note only --notes keys see', async () => {
    const id = await suite.open();
    const reply = await suite.write('close', {
      ticket_id: id,
      body: 'Fire is out.',
      staff_id: suite.agentId,
      status_id: 3,
      dept_id: 1,
      team_id: 0,
    });
    assert.equal(reply.status, 200, reply.text);
    assert.equal(reply.body?.data, id);
    const { key: withoutNotes } = await server.createKey({ scopes: ['tickets:read'] });
    const ticket = await suite.read(id, withoutNotes);
    assert.equal(ticket.status_id, '3');
    assert.equal(typeof ticket.closed, 'string');
    assert.equal(ticket.lastupdate, ticket.closed);
    assert.equal(ticket.staff_id, String(suite.agentId));
    assert.deepEqual(
      entriesOf(ticket).map(([type]) => type),
      ['M'],
      'no internal note without --notes',
    );
    assert.deepEqual(
      entriesOf(await suite.read(id)).map(([type, title, body]) => [type, title, body]),
      [
        ['M', 'Printer on fire', 'The printer on floor 2 is on fire.'],
        ['N', 'Status Changed', 'Fire is out.'],
      ],
    );
  });

  test('close: an open status, an unknown one, or fields that contradict the ticket → 400, nothing changed', async () => {
    const id = await suite.open();
    await suite.refusesNamingTheField('close', { ticket_id: id, staff_id: suite.agentId }, [
      [{ status_id: 1 }, 'parameters.status_id'],
      [{ status_id: 99 }, 'parameters.status_id'],
      // The original's extra fields: one answer whichever differs (no oracle, SPEC §4a).
      [{ status_id: 3, dept_id: 99 }, 'parameters'],
      [{ status_id: 3, topic_id: 2 }, 'parameters'],
      [{ status_id: 3, team_id: 5 }, 'parameters'],
      [{ status_id: 3, username: 'somebody' }, 'parameters'],
      [{ status_id: 3, staff_id: 999_999 }, 'parameters.staff_id'],
      [{ status_id: 3, ticket_id: 999_999 }, 'parameters.ticket_id'],
    ]);
    const ticket = await suite.read(id);
    assert.equal(ticket.status_id, '1');
    assert.equal(ticket.closed, null);
  });

  test("the original's extra close fields: one message whichever is wrong", async () => {
    const id = await suite.open();
    const messages = new Set<string>();
    for (const extra of [{ dept_id: 99 }, { topic_id: 2 }, { team_id: 5 }, { username: 'x' }]) {
      const reply = await suite.change('close', id, { status_id: 3, ...extra });
      assert.equal(reply.status, 400, reply.text);
      messages.add(String(reply.body?.data));
    }
    assert.equal(messages.size, 1, [...messages].join('\n'));
  });

  test('a key acts only as its agents: staff_id outside them → 403 agent_not_allowed, nothing written', async () => {
    const id = await suite.open();
    const { key } = await server.createKey({
      scopes: ['tickets:read', 'tickets:write'],
      agents: [suite.agentId],
    });
    const closing = await suite.write(
      'close',
      { ticket_id: id, staff_id: suite.otherAgentId, status_id: 3 },
      { key },
    );
    assert.equal(closing.status, 403, closing.text);
    assert.equal(closing.body?.code, 'agent_not_allowed');
    assert.equal(entriesOf(await suite.read(id)).length, 1, 'nothing written');
  });

  test('close: a key that cannot read tickets may not compare their fields (403, nothing changed)', async () => {
    const id = await suite.open();
    const { key } = await server.createKey({ scopes: ['tickets:write'], agents: [suite.agentId] });
    for (const extra of [{ dept_id: 1 }, { dept_id: 99 }, { username: 'x' }]) {
      const reply = await suite.write('close', { ticket_id: id, status_id: 3, ...extra }, { key });
      assert.equal(reply.status, 403, reply.text);
      assert.equal(reply.body?.code, 'insufficient_scope');
    }
    assert.equal((await suite.read(id)).closed, null);
  });
});
