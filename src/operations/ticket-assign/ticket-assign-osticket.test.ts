import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import {
  useOsticketTicketChange,
  useOsticketTicketWrites,
} from '../../../test/helpers/osticket-ticket-writes.ts';
import { REAL_OSTICKET_SKIP } from '../../../test/helpers/real-osticket.ts';

// osTicket mode assigns a ticket by osTicket's own code (deskgate's bridge plugin), so this runs
// on a real osTicket; ticket/assign on deskgate's three databases is in ticket-assign.test.ts.
describe('ticket/assign in osTicket mode, through a real osTicket 1.18.1 and its plugin', {
  skip: REAL_OSTICKET_SKIP,
}, () => {
  /** A second agent, to assign the ticket to. */
  let helper: number;

  const writes = useOsticketTicketWrites({ notes: true });
  const { call, ticketRow, events } = useOsticketTicketChange(writes);
  before(() => {
    ({ helper } = writes.shared);
  });

  test('assign and release do what the panel does', async () => {
    const assigned = await call('assign', { agent_id: helper, comments: 'Yours.' });
    assert.equal(assigned.status, 200, assigned.text);
    assert.equal(Number((await ticketRow()).staff_id), helper);
    const released = await call('assign', { agent_id: 0 });
    assert.equal(released.status, 200, released.text);
    assert.equal(Number((await ticketRow()).staff_id), 0);
    assert.deepEqual((await events()).slice(-2), ['assigned', 'released']);
  });
});
