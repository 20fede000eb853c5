import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import type { OsticketBrowser } from '../../../test/helpers/osticket-browser.ts';
import { assertRowsLikePanel } from '../../../test/helpers/osticket-ticket-rows.ts';
import {
  AFTER_REPLY,
  useOsticketTicketWrites,
} from '../../../test/helpers/osticket-ticket-writes.ts';
import { REAL_OSTICKET_SKIP, type RealOsticket } from '../../../test/helpers/real-osticket.ts';

// osTicket mode closes a ticket by osTicket's own code (deskgate's bridge plugin), so this runs on
// a real osTicket; ticket/close on deskgate's three databases is in ticket-close.test.ts.
describe("ticket/close in osTicket mode, by a real osTicket 1.18.1's own code", {
  skip: REAL_OSTICKET_SKIP,
}, () => {
  let osticket: RealOsticket;
  let admin: OsticketBrowser;
  /** A ticket deskgate opened and its twin from the staff panel, each answered the same. */
  let stockTicket: number;
  let stockPanelTicket: number;

  const writes = useOsticketTicketWrites();
  const { deskgate, call } = writes;
  before(async () => {
    ({ osticket, admin } = writes.shared);
    const twins = await writes.openTwins();
    await writes.replyToTwins(twins);
    ({ ours: stockTicket, panel: stockPanelTicket } = twins);
  });

  test("ticket/close is osTicket's status action with the body as its note, as the panel writes it", async () => {
    const checked = await call(deskgate, 'close', {
      ticket_id: stockTicket,
      staff_id: 1,
      status_id: 3,
      dept_id: 2,
    });
    assert.equal(checked.status, 400);
    // One answer whichever field differs (no oracle, decision 313).
    const wrongLogin = await call(deskgate, 'close', {
      ticket_id: stockTicket,
      staff_id: 1,
      status_id: 3,
      username: 'not-the-login',
    });
    assert.equal(wrongLogin.status, 400);
    assert.deepEqual(wrongLogin.body?.errors, checked.body?.errors);
    assert.deepEqual(
      checked.body?.errors?.map((e) => e.field),
      ['parameters'],
    );
    const reply = await call(deskgate, 'close', {
      ticket_id: stockTicket,
      staff_id: 1,
      status_id: 3,
      body: 'Fixed & done.',
      username: osticket.admin.username,
    });
    assert.equal(reply.status, 200, JSON.stringify(reply.body));
    assert.equal(reply.body?.data, String(stockTicket));
    const again = await call(deskgate, 'close', {
      ticket_id: stockTicket,
      staff_id: 1,
      status_id: 3,
    });
    assert.deepEqual([again.status, again.body?.code], [409, 'not_closeable']);

    await admin.get(`scp/tickets.php?id=${stockPanelTicket}`);
    const closed = await admin.postAjax(`scp/ajax.php/tickets/${stockPanelTicket}/status`, {
      status_id: '3',
      comments: 'Fixed &amp; done.',
    });
    assert.equal(closed.status, 201, closed.text.slice(0, 300));
    await assertRowsLikePanel(osticket, stockTicket, stockPanelTicket, AFTER_REPLY);
  });
});
