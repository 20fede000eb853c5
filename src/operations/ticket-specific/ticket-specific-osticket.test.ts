import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import type { Row } from '../../../test/helpers/osticket-ticket-rows.ts';
import { useOsticketTicketWrites } from '../../../test/helpers/osticket-ticket-writes.ts';
import { REAL_OSTICKET_SKIP, type RealOsticket } from '../../../test/helpers/real-osticket.ts';

// What osTicket's own code wrote for deskgate's ticket writes (on a real osTicket), read back;
// ticket/specific on every kind of database is in ticket-specific.test.ts.
describe("ticket/specific in osTicket mode reads what a real osTicket 1.18.1's own code wrote", {
  skip: REAL_OSTICKET_SKIP,
}, () => {
  let osticket: RealOsticket;
  /** Opened, answered and closed with a note through deskgate (the key may not read notes). */
  let stockTicket: number;

  const writes = useOsticketTicketWrites();
  const { deskgate } = writes;
  before(async () => {
    ({ osticket } = writes.shared);
    stockTicket = await writes.openAnsweredAndClosed();
  });

  test('ticket/specific reads back what osTicket wrote', async () => {
    const reply = await deskgate.request(
      { query: 'ticket', condition: 'specific', parameters: { id: stockTicket } },
      { key: osticket.apiKey.key },
    );
    assert.equal(reply.status, 200, JSON.stringify(reply.body));
    const data = reply.body?.data as { tickets: Record<string, unknown>[] } | undefined;
    const ticket = data?.tickets[0] ?? {};
    const [row] = await osticket.query<Row>(
      'SELECT number, status_id, closed FROM ost_ticket WHERE ticket_id = ?',
      [stockTicket],
    );
    assert.equal(ticket.number, row?.number);
    assert.equal(ticket.status_id, '3');
    assert.equal(ticket.closed, row?.closed);
    assert.equal(ticket.subject, 'Printer on fire');
    const entries = ticket.entries as { entry_type: string }[];
    assert.deepEqual(
      entries.map((entry) => entry.entry_type),
      ['M', 'R'],
    );
  });
});
