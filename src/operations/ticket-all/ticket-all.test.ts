import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { describeEachDatabaseKind } from '../../../test/helpers/each-database.ts';
import { type ListPage, listPageOf, type Reply } from '../../../test/helpers/http.ts';
import {
  insertReferenceTickets,
  useTicketReadSuite,
} from '../../../test/helpers/ticket-read-suite.ts';

type Page = ListPage<'tickets', Record<string, unknown>>;
const pageOf = (reply: Reply): Page => listPageOf(reply, 'tickets');

describeEachDatabaseKind('ticket/all', (database) => {
  const suite = useTicketReadSuite(database, { env: { DESKGATE_MAX_LIST: '12' } });
  /** Ticket ids by the day they were created. */
  const byDay = new Map<string, number[]>();
  let closedId: number;

  before(async () => {
    // Ten on one day (five in one second), five on the next; last updates a week later; the last one resolved.
    for (let index = 0; index < 15; index++) {
      const day = index < 10 ? '2026-03-01' : '2026-03-02';
      const created = index < 5 ? `${day} 10:00:00` : `${day} 1${index % 10}:00:00`;
      const id = await suite.addTicket({
        title: `Ticket ${index}`,
        created,
        updated: created.replace('-03-0', '-03-1'),
        resolved: index === 14,
      });
      byDay.set(day, [...(byDay.get(day) ?? []), id]);
      if (index === 14) closedId = id;
    }
  });

  const list = (sort: string, parameters: Record<string, unknown>) =>
    suite.request({ query: 'ticket', condition: 'all', sort, parameters });
  const ids = (page: Page) => page.tickets.map((t) => Number(t.ticket_id));

  test('creationDate: one element per ticket with its entries, in (created, id) order, both bounds inclusive', async () => {
    const page = pageOf(
      await list('creationDate', { start_date: '2026-03-01', end_date: '2026-03-01' }),
    );
    assert.deepEqual(ids(page), byDay.get('2026-03-01'));
    assert.equal(page.next, undefined);
    const ticket = page.tickets[0] ?? {};
    assert.equal(ticket.subject, 'Ticket 0');
    assert.equal((ticket.entries as unknown[]).length, 1);
    assert.ok(!('title' in ticket) && !('body' in ticket), 'no entry values in ticket keys');
  });

  test('pages with limit and after: every ticket once, even five in one second', async () => {
    const seen: number[] = [];
    let after: string | undefined;
    let pages = 0;
    do {
      const page = pageOf(
        await list('creationDate', {
          start_date: '2026-03-01',
          end_date: '2026-03-02',
          limit: 4,
          ...(after ? { after } : {}),
        }),
      );
      seen.push(...ids(page));
      after = page.next;
      pages++;
    } while (after && pages < 10);
    assert.deepEqual(seen, [
      ...(byDay.get('2026-03-01') ?? []),
      ...(byDay.get('2026-03-02') ?? []),
    ]);
    assert.equal(pages, 4);
  });

  test('without limit, more than DESKGATE_MAX_LIST → 400 too_many_results naming the bound', async () => {
    const reply = await list('creationDate', { start_date: '2026-01-01', end_date: '2026-12-31' });
    assert.equal(reply.status, 400, reply.text);
    assert.equal(reply.body?.code, 'too_many_results');
    assert.match(String(reply.body?.data), /^More than 12 tickets match/);
    const paged = pageOf(
      await list('creationDate', { start_date: '2026-01-01', end_date: '2026-12-31', limit: 20 }),
    );
    assert.equal(paged.total, 15);
  });

  test('lastUpdateDate, status (0 = any) and statusByDate', async () => {
    const updated = pageOf(
      await list('lastUpdateDate', { start_date: '2026-03-12', end_date: '2026-03-12' }),
    );
    assert.deepEqual(ids(updated), byDay.get('2026-03-02'));
    const resolved = pageOf(await list('status', { status: 2 }));
    assert.deepEqual(ids(resolved), [closedId]);
    const open = pageOf(await list('status', { status: 1, limit: 100 }));
    assert.equal(open.total, 14);
    const any = pageOf(await list('status', { status: 0, limit: 100 }));
    assert.equal(any.total, 15);
    const byDate = pageOf(
      await list('statusByDate', { status: 2, start_date: '2026-03-01', end_date: '2026-03-01' }),
    );
    assert.deepEqual(ids(byDate), []);
  });

  test('needs tickets:read (in osTicket mode: a key that may create tickets)', async () => {
    const reply = await suite.request(
      {
        query: 'ticket',
        condition: 'all',
        sort: 'creationDate',
        parameters: { start_date: '2026-03-01', end_date: '2026-03-01' },
      },
      suite.withoutTicketsKey,
    );
    assert.equal(reply.status, 403, reply.text);
    assert.equal(reply.body?.code, 'insufficient_scope');
  });

  test('status "0 OR 1=1" → 400 naming parameters.status, nothing changed', async () => {
    const before = await suite.countTickets();
    const reply = await list('status', { status: '0 OR 1=1' });
    assert.equal(reply.status, 400, reply.text);
    assert.deepEqual(
      reply.body?.errors?.map((e) => e.field),
      ['parameters.status'],
    );
    assert.equal(await suite.countTickets(), before);
  });

  if (database.kind === 'osticket') {
    // Last: its rows would change the totals above.
    test('one element per ticket of several entries; a NULL lastupdate is in no update range', async () => {
      const osticket = database.osticket;
      assert.ok(osticket);
      // Message, reply, internal note and a task of the same id; and one the original PHP service wrote.
      const { full, originals } = await insertReferenceTickets(osticket, suite.userId);
      const created = pageOf(
        await list('creationDate', { start_date: '2026-11-25', end_date: '2026-11-26' }),
      );
      assert.deepEqual(ids(created), [full, originals]);
      assert.equal((created.tickets[0]?.entries as unknown[] | undefined)?.length, 2);
      const closed = pageOf(await list('status', { status: 3 }));
      assert.deepEqual(ids(closed), [originals]);
      const updated = pageOf(
        await list('lastUpdateDate', {
          start_date: '2026-11-25',
          end_date: '2026-11-26',
          limit: 10,
        }),
      );
      assert.deepEqual(ids(updated), [full]);
    });
  }
});
