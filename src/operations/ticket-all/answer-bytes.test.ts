import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { describeEachDatabaseKind } from '../../../test/helpers/each-database.ts';
import { type ListPage, listPageOf, type Reply } from '../../../test/helpers/http.ts';
import { useTicketReadSuite } from '../../../test/helpers/ticket-read-suite.ts';

/** The smallest bound the setting takes; each ticket below holds about a fifth of it. */
const MAX_BYTES = 65_536;
const TICKETS = 9;
const EVERYTHING = { start_date: '2000-01-01', end_date: '2999-12-31' };

type Page = ListPage<'tickets', { ticket_id: string }>;
const pageOf = (reply: Reply): Page => listPageOf(reply, 'tickets');

/** Issue 32, item 5: a list answer is bounded in bytes as well as in count (decision 323). */
describeEachDatabaseKind(
  'list answers bounded in bytes (DESKGATE_MAX_ANSWER_BYTES)',
  (database) => {
    const suite = useTicketReadSuite(database, {
      env: { DESKGATE_MAX_ANSWER_BYTES: String(MAX_BYTES), DESKGATE_MAX_LIST: '1000' },
    });
    const ids: string[] = [];

    before(async () => {
      for (let i = 0; i < TICKETS; i++) {
        const id = await suite.addTicket({ title: `Big ${i}`, body: `${i} ${'x'.repeat(12_000)}` });
        ids.push(String(id));
      }
    });

    const list = (parameters: Record<string, unknown>) =>
      suite.request({ query: 'ticket', condition: 'all', sort: 'creationDate', parameters });

    test('without limit, more bytes than the bound → 400 too_many_results telling the client to page', async () => {
      const reply = await list(EVERYTHING);
      assert.equal(reply.status, 400, reply.text.slice(0, 300));
      assert.equal(reply.body?.code, 'too_many_results');
      assert.match(String(reply.body?.data), new RegExp(`more than ${MAX_BYTES} bytes`));
      assert.match(String(reply.body?.data), /parameters\.limit/);
      assert.ok(reply.text.length < 1000, 'the refusal holds no ticket');
    });

    test('with limit, a page ends at the bound and `next` goes on: every ticket once', async () => {
      const seen: string[] = [];
      let after: string | undefined;
      let pages = 0;
      do {
        const reply = await list({ ...EVERYTHING, limit: 1000, ...(after ? { after } : {}) });
        const page = pageOf(reply);
        assert.ok(page.total >= 1);
        assert.ok(reply.text.length < MAX_BYTES + 20_000, `page of ${reply.text.length} bytes`);
        seen.push(...page.tickets.map((ticket) => ticket.ticket_id));
        after = page.next;
        pages++;
      } while (after !== undefined);
      assert.deepEqual(seen, ids);
      assert.ok(pages >= 2, `${pages} pages`);
    });

    test('a list within the bound is answered whole, as before', async () => {
      const page = pageOf(await list({ ...EVERYTHING, end_date: '2999-12-31', limit: 3 }));
      assert.equal(page.total, 3);
      assert.equal(typeof page.next, 'string');
      const small = await suite.request(
        { query: 'topics', condition: 'all' },
        suite.withoutTicketsKey,
      );
      assert.equal(small.status, 200, small.text);
    });
  },
);
