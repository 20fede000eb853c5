import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { describeEachDatabase } from '../../../test/helpers/each-database.ts';
import { type ListPage, listPageOf, type Reply } from '../../../test/helpers/http.ts';
import { useTestServer } from '../../../test/helpers/test-server.ts';
import { addAgent, addUser, ticketAddBody } from '../../../test/helpers/tickets.ts';
import { openDatabase } from '../../data/open-database.ts';
import type { OwnTicketTables } from '../../data/tickets/own-tickets.ts';

type Page = ListPage<'tickets', Record<string, unknown>>;
const pageOf = (reply: Reply): Page => listPageOf(reply, 'tickets');

describeEachDatabase('ticket/all', (database) => {
  const server = useTestServer({ database, env: { DESKGATE_MAX_LIST: '12' } });
  /** Ticket ids by the day they were created (set in the database). */
  const byDay = new Map<string, number[]>();
  let closedId: number;

  before(async () => {
    const userId = await addUser(server.store);
    const agentId = await addAgent(server.store);
    const ids: number[] = [];
    for (let i = 0; i < 15; i++) {
      const reply = await server.request(ticketAddBody(userId, { title: `Ticket ${i}` }), {
        method: 'POST',
      });
      assert.equal(reply.status, 200, reply.text);
      ids.push(Number(reply.body?.data));
    }
    const closing = await server.request(
      {
        query: 'ticket',
        condition: 'close',
        parameters: { ticket_id: ids[14], staff_id: agentId, status_id: 2 },
      },
      { method: 'POST' },
    );
    assert.equal(closing.status, 200, closing.text);
    closedId = ids[14] ?? 0;
    // Ten on one day (five in one second), five on the next; last updates a week later.
    const { db } = openDatabase<
      OwnTicketTables & { api_keys: { id: number }; users: { id: number } }
    >(database.url);
    try {
      for (const [index, id] of ids.entries()) {
        const day = index < 10 ? '2026-03-01' : '2026-03-02';
        const created = index < 5 ? `${day} 10:00:00` : `${day} 1${index % 10}:00:00`;
        await db
          .updateTable('tickets')
          .set({ created_at: created, last_update_at: created.replace('-03-0', '-03-1') })
          .where('id', '=', id)
          .execute();
        byDay.set(day, [...(byDay.get(day) ?? []), id]);
      }
    } finally {
      await db.destroy();
    }
  });

  const list = (sort: string, parameters: Record<string, unknown>) =>
    server.request({ query: 'ticket', condition: 'all', sort, parameters });
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

  test('needs tickets:read', async () => {
    const { key } = await server.createKey({
      scopes: ['read', 'write', 'users:read', 'tickets:write'],
    });
    const reply = await server.request(
      {
        query: 'ticket',
        condition: 'all',
        parameters: { start_date: '2026-03-01', end_date: '2026-03-01' },
      },
      { key },
    );
    assert.equal(reply.status, 403);
  });
});
