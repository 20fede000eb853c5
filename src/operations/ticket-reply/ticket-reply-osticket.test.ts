import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import type { OsticketBrowser } from '../../../test/helpers/osticket-browser.ts';
import {
  assertRowsLikePanel,
  assertTextReply,
  type Row,
  replyInPanel,
  ticketCounts,
} from '../../../test/helpers/osticket-ticket-rows.ts';
import {
  AFTER_REPLY,
  TICKET_INPUT as input,
  useOsticketTicketChange,
  useOsticketTicketWrites,
  useTimingOutServer,
} from '../../../test/helpers/osticket-ticket-writes.ts';
import { REAL_OSTICKET_SKIP, type RealOsticket } from '../../../test/helpers/real-osticket.ts';
import type { SmtpSink } from '../../../test/helpers/smtp-sink.ts';

// osTicket mode posts a reply by osTicket's own code (deskgate's bridge plugin), so these run on a
// real osTicket; ticket/reply on deskgate's three databases is in ticket-reply.test.ts.
describe("ticket/reply in osTicket mode, by a real osTicket 1.18.1's own code", {
  skip: REAL_OSTICKET_SKIP,
}, () => {
  let osticket: RealOsticket;
  let sink: SmtpSink;
  let admin: OsticketBrowser;
  let userId: number;
  let ticketId: number;
  /** A ticket deskgate opened and its twin from the staff panel, neither answered yet. */
  let stockTicket: number;
  let stockPanelTicket: number;

  const writes = useOsticketTicketWrites();
  const { deskgate, call } = writes;
  const timingOut = useTimingOutServer(writes);
  const ticket = useOsticketTicketChange(writes);
  const callOnTicket = ticket.call;
  before(async () => {
    ({ osticket, sink, admin, userId } = writes.shared);
    ticketId = ticket.ticketId;
    ({ ours: stockTicket, panel: stockPanelTicket } = await writes.openTwins());
  });

  test("ticket/reply is posted by osTicket as the agent, mailed to the user, with the panel's rows", async () => {
    const mailsBefore = sink.messages.length;
    const reply = await call(deskgate, 'reply', {
      ticket_id: stockTicket,
      staff_id: 1,
      body: 'We are on it <b>now</b>.',
    });
    assert.equal(reply.status, 200, JSON.stringify(reply.body));
    await assertTextReply(osticket, sink, mailsBefore, Number(reply.body?.data), {
      body: 'We are on it &lt;b&gt;now&lt;/b&gt;.',
      to: 'tess@example.net',
    });

    await replyInPanel(admin, stockPanelTicket, 'We are on it &lt;b&gt;now&lt;/b&gt;.');
    await assertRowsLikePanel(osticket, stockTicket, stockPanelTicket, AFTER_REPLY);
  });

  test('reply with an Idempotency-Key: one response, one answer', async () => {
    const headers = { 'Idempotency-Key': `reply-${ticketId}` };
    const first = await callOnTicket('reply', { body: 'On the way.' }, headers);
    assert.equal(first.status, 200, first.text);
    const counts = await ticketCounts(osticket);
    const again = await callOnTicket('reply', { body: 'On the way.' }, headers);
    assert.equal(again.status, 200, again.text);
    assert.equal(again.body?.data, first.body?.data);
    assert.deepEqual(await ticketCounts(osticket), counts);
  });

  test('a reply whose answer was lost: the retry waits, then answers the reply osTicket posted, never a second', async () => {
    const entries = async () =>
      Number(
        (
          await osticket.query<{ n: number }>(
            `SELECT COUNT(*) n FROM ost_thread_entry e JOIN ost_thread t ON t.id = e.thread_id
             WHERE t.object_type = 'T' AND t.object_id = ? AND e.type = 'R'`,
            [ticketId],
          )
        )[0]?.n ?? 0,
      );
    const count = await entries();
    const send = () =>
      timingOut.request(
        {
          query: 'ticket',
          condition: 'reply',
          parameters: { ticket_id: ticketId, staff_id: 1, body: 'The answer got lost.' },
        },
        { method: 'POST', key: osticket.apiKey.key, headers: { 'Idempotency-Key': 'lost-reply' } },
      );
    const timedOut = await send();
    assert.deepEqual([timedOut.status, timedOut.body?.code], [504, 'osticket_timeout']);
    assert.equal(await entries(), count + 1, 'osTicket posted it; deskgate never heard');
    const inFlight = await send();
    assert.deepEqual([inFlight.status, inFlight.body?.code], [409, 'write_in_progress']);
    // Time passes beyond the timeout and osTicket's own limit.
    await osticket.query(
      `UPDATE deskgate_idempotency_keys SET created_at = created_at - INTERVAL 2 MINUTE WHERE idempotency_key = 'lost-reply'`,
    );
    const recovered = await send();
    assert.equal(recovered.status, 200, recovered.text);
    const [posted] = await osticket.query<{ id: number }>(
      `SELECT MAX(e.id) id FROM ost_thread_entry e JOIN ost_thread t ON t.id = e.thread_id
       WHERE t.object_type = 'T' AND t.object_id = ? AND e.type = 'R'`,
      [ticketId],
    );
    assert.equal(recovered.body?.data, String(posted?.id));
    assert.equal(await entries(), count + 1, 'no second reply');
    assert.equal((await send()).body?.data, String(posted?.id));
  });

  test('a key granted --agent replies as it; a staff_id outside its agents → 403 naming the grant', async () => {
    const id = Number((await call(deskgate, 'add', { ...input, user_id: userId })).body?.data);
    const before = await ticketCounts(osticket);
    const outside = await call(deskgate, 'reply', {
      ticket_id: id,
      body: 'As someone else',
      staff_id: 2,
    });
    assert.deepEqual([outside.status, outside.body?.code], [403, 'agent_not_allowed']);
    assert.match(
      String(outside.body?.data),
      new RegExp(
        `deskgate osticket keys grant ${osticket.apiKey.id} --scope .*tickets:write --agent 1,2`,
      ),
    );
    assert.deepEqual(await ticketCounts(osticket), before, 'nothing reached osTicket');
    // Its one agent: staff_id may be left out.
    const replied = await call(deskgate, 'reply', { ticket_id: id, body: 'As agent 1' });
    assert.equal(replied.status, 200, JSON.stringify(replied.body));
    const [entry] = await osticket.query<Row>(
      'SELECT staff_id FROM ost_thread_entry WHERE id = ?',
      [Number(replied.body?.data)],
    );
    assert.equal(entry?.staff_id, 1);
  });
});
