import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { describeEachDatabase } from '../../../test/helpers/each-database.ts';
import { useTestServer } from '../../../test/helpers/test-server.ts';
import { addUser, ticketAddBody } from '../../../test/helpers/tickets.ts';

interface Answer {
  tickets: Record<string, unknown>[];
}

describeEachDatabase('ticket/specific', (database) => {
  const server = useTestServer({ database });
  const ids: number[] = [];

  before(async () => {
    const userId = await addUser(server.store);
    for (let i = 0; i < 5; i++) {
      const reply = await server.request(ticketAddBody(userId, { title: `Ticket ${i}` }), {
        method: 'POST',
      });
      assert.equal(reply.status, 200, reply.text);
      ids.push(Number(reply.body?.data));
    }
  });

  test('ticket/specific by id or by number, exactly one; unknown → 204', async () => {
    const id = ids[3] ?? 0;
    const byId = await server.request({
      query: 'ticket',
      condition: 'specific',
      parameters: { id },
    });
    const ticket = (byId.body?.data as Answer | undefined)?.tickets[0] ?? {};
    const byNumber = await server.request({
      query: 'ticket',
      condition: 'specific',
      parameters: { number: ticket.number },
    });
    assert.deepEqual(byNumber.body?.data, byId.body?.data);
    // A number that is another ticket's id is not read as an id.
    const other = await server.request({
      query: 'ticket',
      condition: 'specific',
      parameters: { number: String(id) },
    });
    assert.notEqual((other.body?.data as Answer | undefined)?.tickets[0]?.ticket_id, String(id));
    const missing = await server.request({
      query: 'ticket',
      condition: 'specific',
      parameters: { id: 999_999 },
    });
    assert.equal(missing.status, 204);
    for (const parameters of [{}, { id, number: ticket.number }]) {
      const reply = await server.request({ query: 'ticket', condition: 'specific', parameters });
      assert.equal(reply.status, 400, reply.text);
      assert.equal(
        reply.body?.data,
        'Invalid parameters: parameters must hold exactly one of id and number.',
      );
    }
  });
});
