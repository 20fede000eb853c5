import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { ticketCounts } from '../../../test/helpers/osticket-ticket-rows.ts';
import {
  useOsticketTicketChange,
  useOsticketTicketWrites,
} from '../../../test/helpers/osticket-ticket-writes.ts';
import { REAL_OSTICKET_SKIP, type RealOsticket } from '../../../test/helpers/real-osticket.ts';

// osTicket mode changes a status by osTicket's own code (deskgate's bridge plugin), so these run on
// a real osTicket; ticket/status on deskgate's three databases is in ticket-status.test.ts.
describe('ticket/status in osTicket mode, through a real osTicket 1.18.1 and its plugin', {
  skip: REAL_OSTICKET_SKIP,
}, () => {
  let osticket: RealOsticket;
  /** A second agent: the client's key acts as agent 1 only. */
  let helper: number;
  let ticketId: number;

  const writes = useOsticketTicketWrites({ notes: true });
  const ticket = useOsticketTicketChange(writes);
  const { call, ticketRow, events, read } = ticket;
  before(() => {
    ({ osticket, helper } = writes.shared);
    ticketId = ticket.ticketId;
  });

  test('status: closes with a closed event; the same status again changes nothing', async () => {
    const closed = await call('status', { status_id: 3, comments: 'Fixed.' });
    assert.equal(closed.status, 200, closed.text);
    assert.equal(closed.body?.data, String(ticketId));
    assert.equal(Number((await ticketRow()).status_id), 3);
    assert.equal((await events()).at(-1), 'closed');
    const counts = await ticketCounts(osticket);
    const same = await call('status', { status_id: 3, comments: 'Still fixed.' });
    assert.equal(same.status, 200, same.text);
    assert.deepEqual(await ticketCounts(osticket), counts);
  });

  test("if_unmodified_since: osTicket's current updated passes; a stale one → 409 conflict with it, nothing written", async () => {
    const { updated } = await read();
    assert.equal(updated, String((await ticketRow()).updated));
    const reopened = await call('status', { status_id: 1, if_unmodified_since: updated });
    assert.equal(reopened.status, 200, reopened.text);
    assert.equal((await events()).at(-1), 'reopened');
    const counts = await ticketCounts(osticket);
    const stale = await call('assign', {
      agent_id: helper,
      if_unmodified_since: '2000-01-01 00:00:00',
    });
    assert.equal(stale.status, 409, stale.text);
    assert.equal(stale.body?.code, 'conflict');
    assert.equal(stale.body?.updated, String((await ticketRow()).updated));
    assert.deepEqual(await ticketCounts(osticket), counts);
  });

  test('status: an unknown status is a deskgate error; as an agent outside the key’s → 403; nothing written', async () => {
    await ticket.refusesNamingTheField('status', { status_id: 999 }, 'parameters.status_id');
    const counts = await ticketCounts(osticket);
    const other = await call('status', { staff_id: helper, status_id: 3 });
    assert.equal(other.status, 403, other.text);
    assert.equal(other.body?.code, 'agent_not_allowed');
    assert.deepEqual(await ticketCounts(osticket), counts);
  });
});
