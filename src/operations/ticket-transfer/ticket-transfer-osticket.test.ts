import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  useOsticketTicketChange,
  useOsticketTicketWrites,
} from '../../../test/helpers/osticket-ticket-writes.ts';
import { REAL_OSTICKET_SKIP } from '../../../test/helpers/real-osticket.ts';

// osTicket mode transfers a ticket by osTicket's own code (deskgate's bridge plugin), so this runs
// on a real osTicket; ticket/transfer on deskgate's three databases is in ticket-transfer.test.ts.
describe('ticket/transfer in osTicket mode, through a real osTicket 1.18.1 and its plugin', {
  skip: REAL_OSTICKET_SKIP,
}, () => {
  const writes = useOsticketTicketWrites({ notes: true });
  const ticket = useOsticketTicketChange(writes);
  const { call, ticketRow, events } = ticket;

  test('transfer does what the panel does; an unknown department is a deskgate error', async () => {
    const transferred = await call('transfer', { dept_id: 2 });
    assert.equal(transferred.status, 200, transferred.text);
    assert.equal(Number((await ticketRow()).dept_id), 2);
    assert.deepEqual((await events()).slice(-1), ['transferred']);
    await ticket.refusesNamingTheField('transfer', { dept_id: 999 }, 'parameters.dept_id');
  });
});
