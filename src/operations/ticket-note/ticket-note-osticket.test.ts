import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { ticketCounts } from '../../../test/helpers/osticket-ticket-rows.ts';
import {
  useOsticketTicketChange,
  useOsticketTicketWrites,
} from '../../../test/helpers/osticket-ticket-writes.ts';
import { REAL_OSTICKET_SKIP, type RealOsticket } from '../../../test/helpers/real-osticket.ts';

// osTicket mode posts a note by osTicket's own code (deskgate's bridge plugin), so these run on a
// real osTicket; ticket/note on deskgate's three databases is in ticket-note.test.ts.
describe('ticket/note in osTicket mode, through a real osTicket 1.18.1 and its plugin', {
  skip: REAL_OSTICKET_SKIP,
}, () => {
  let osticket: RealOsticket;
  let ticketId: number;

  const writes = useOsticketTicketWrites({ notes: true });
  const ticket = useOsticketTicketChange(writes);
  const { call, read } = ticket;
  before(() => {
    ({ osticket } = writes.shared);
    ticketId = ticket.ticketId;
  });

  test('note: the entry id; an Idempotency-Key retry answers it again and posts nothing more', async () => {
    const headers = { 'Idempotency-Key': `note-${ticketId}` };
    const first = await call(
      'note',
      { title: 'Called', body: 'They <b>will</b> call back.' },
      headers,
    );
    assert.equal(first.status, 200, first.text);
    const counts = await ticketCounts(osticket);
    const again = await call(
      'note',
      { title: 'Called', body: 'They <b>will</b> call back.' },
      headers,
    );
    assert.equal(again.status, 200, again.text);
    assert.equal(again.body?.data, first.body?.data);
    assert.deepEqual(await ticketCounts(osticket), counts);
    const entries = (await read()).entries as Record<string, string>[];
    const note = entries.find((entry) => entry.entry_id === first.body?.data);
    assert.equal(note?.entry_type, 'N');
    assert.equal(note?.entry_title, 'Called');
    assert.match(String(note?.entry_body), /They &lt;b&gt;will&lt;\/b&gt; call back\./);
  });

  test('note: an unknown ticket is a deskgate error, nothing written', async () => {
    await ticket.refusesNamingTheField(
      'note',
      { ticket_id: 999_999, body: 'x' },
      'parameters.ticket_id',
    );
  });
});
