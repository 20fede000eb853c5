import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  useOsticketTicketChange,
  useOsticketTicketWrites,
} from '../../../test/helpers/osticket-ticket-writes.ts';
import { REAL_OSTICKET_SKIP } from '../../../test/helpers/real-osticket.ts';

// osTicket mode edits a ticket by osTicket's own code (deskgate's bridge plugin), so this runs on
// a real osTicket; ticket/update on deskgate's three databases is in ticket-update.test.ts.
describe('ticket/update in osTicket mode, through a real osTicket 1.18.1 and its plugin', {
  skip: REAL_OSTICKET_SKIP,
}, () => {
  const writes = useOsticketTicketWrites({ notes: true });
  const ticket = useOsticketTicketChange(writes);
  const { call, events, read } = ticket;

  test('update does what the panel does; an unknown topic is a deskgate error', async () => {
    const updated = await call('update', { priority_id: 4 });
    assert.equal(updated.status, 200, updated.text);
    assert.equal((await read()).priority, 'Emergency');
    assert.deepEqual((await events()).slice(-1), ['edited']);
    await ticket.refusesNamingTheField('update', { topic_id: 999 }, 'parameters.topic_id');
  });
});
