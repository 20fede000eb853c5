import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { describeEachDatabaseKind } from '../../../test/helpers/each-database.ts';
import type { Reply } from '../../../test/helpers/http.ts';
import {
  insertReferenceTickets,
  type ReferenceTickets,
  useTicketReadSuite,
} from '../../../test/helpers/ticket-read-suite.ts';

interface Answer {
  tickets: Record<string, unknown>[];
}

const specific = (parameters: Record<string, unknown>) => ({
  query: 'ticket',
  condition: 'specific',
  parameters,
});

function ticketOf(reply: Reply): Record<string, unknown> {
  assert.equal(reply.status, 200, reply.text);
  return (reply.body?.data as Answer | undefined)?.tickets[0] ?? {};
}

describeEachDatabaseKind('ticket/specific', (database) => {
  const suite = useTicketReadSuite(database);
  const ids: number[] = [];
  /** A ticket whose number is the first ticket's id. */
  let numberedLikeAnId: number;

  before(async () => {
    for (let i = 0; i < 5; i++) ids.push(await suite.addTicket({ title: `Ticket ${i}` }));
    numberedLikeAnId = await suite.addTicket({ title: 'Numbered', number: String(ids[0]) });
  });

  test('ticket/specific by id or by number, exactly one; unknown → 204', async () => {
    const id = ids[3] ?? 0;
    const byId = await suite.request(specific({ id }));
    const ticket = ticketOf(byId);
    assert.equal(ticket.subject, 'Ticket 3');
    const byNumber = await suite.request(specific({ number: ticket.number }));
    assert.deepEqual(byNumber.body?.data, byId.body?.data);
    const missing = await suite.request(specific({ id: 999_999 }));
    assert.equal(missing.status, 204);
    for (const parameters of [{}, { id, number: ticket.number }]) {
      const reply = await suite.request(specific(parameters));
      assert.equal(reply.status, 400, reply.text);
      assert.equal(
        reply.body?.data,
        'Invalid parameters: parameters must hold exactly one of id and number.',
      );
    }
  });

  test('by number never reads the value as an id', async () => {
    const byNumber = ticketOf(await suite.request(specific({ number: String(ids[0]) })));
    assert.equal(byNumber.ticket_id, String(numberedLikeAnId));
  });

  test(`id "1' OR '1'='1" → 400 naming parameters.id, nothing changed`, async () => {
    const before = await suite.countTickets();
    const reply = await suite.request(specific({ id: "1' OR '1'='1" }));
    assert.equal(reply.status, 400, reply.text);
    assert.deepEqual(
      reply.body?.errors?.map((e) => e.field),
      ['parameters.id'],
    );
    assert.equal(await suite.countTickets(), before);
  });

  test('a key without tickets:read → 403 insufficient_scope (in osTicket mode: no can_create_tickets)', async () => {
    const reply = await suite.request(specific({ id: ids[0] }), suite.withoutTicketsKey);
    assert.equal(reply.status, 403, reply.text);
    assert.equal(reply.body?.code, 'insufficient_scope');
  });

  if (database.kind === 'osticket') {
    let reference: ReferenceTickets;

    before(async () => {
      assert.ok(database.osticket);
      reference = await insertReferenceTickets(database.osticket, suite.userId);
    });

    test('the ticket’s own columns, subject and priority from the form, M and R only', async () => {
      const { full, created, replied } = reference;
      const ticket = ticketOf(await suite.request(specific({ id: full })));
      assert.equal(ticket.number, '304366');
      assert.equal(ticket.user_id, String(suite.userId));
      assert.equal(ticket.staff_id, '1');
      assert.equal(ticket.created, created);
      assert.equal(ticket.updated, replied);
      assert.equal(ticket.est_duedate, '2026-11-27 22:00:00');
      assert.equal(ticket.subject, 'Printer on fire');
      assert.equal(ticket.priority, 'High');
      assert.equal(ticket.priority_id, '3');
      const entries = ticket.entries as Record<string, string>[];
      assert.deepEqual(
        entries.map((e) => [e.entry_type, e.entry_poster, e.entry_body]),
        [
          ['M', 'Tess Ticket', '<p>It is on fire.</p>'],
          ['R', 'Alex Agent', '<p>On my way.</p>'],
        ],
        'no internal note, no task entry',
      );
      assert.equal(entries[0]?.entry_created, created);
    });

    test('a ticket without form answers takes subject and priority from ticket__cdata', async () => {
      const ticket = ticketOf(await suite.request(specific({ id: reference.originals })));
      assert.equal(ticket.subject, 'From the original');
      assert.equal(ticket.priority_id, '2');
      assert.equal(ticket.priority, 'Normal');
      assert.equal(ticket.lastupdate, null);
      assert.deepEqual(ticket.entries, []);
    });
  }
});
