import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { sql } from 'kysely';
import { DEFAULT_SCOPES } from '../../src/domain.ts';
import { importFaqs } from '../helpers/data-setup.ts';
import { describeEachDatabase } from '../helpers/each-database.ts';
import type { Reply } from '../helpers/http.ts';
import { useTestServer } from '../helpers/test-server.ts';
import { addUser, ticketAddBody } from '../helpers/tickets.ts';
import { withDatabase } from '../support/database-rows.ts';

const CATALOGUE_TABLES = ['departments', 'sla_plans', 'faq_categories', 'faqs', 'api_keys'];

function dataOf<T>(reply: Reply): T {
  assert.equal(reply.status, 200, reply.text);
  return reply.body?.data as T;
}

/** A FAQ three levels deep, with private, featured and internal parts. */
const TREE = [
  {
    name: 'Accounts',
    description: 'Signing in',
    notes: 'internal: ask Sam',
    visibility: 1,
    faqs: [
      {
        question: 'Reset password?',
        answer: 'Use the link.',
        keywords: 'password',
        notes: 'n',
        published: 1,
      },
      { question: 'Featured one', answer: 'Yes.', keywords: '', notes: '', published: 2 },
      { question: 'Internal one', answer: 'No.', keywords: '', notes: '', published: 0 },
    ],
    children: [
      {
        name: 'Two-factor',
        description: '',
        notes: '',
        visibility: 2,
        faqs: [{ question: 'Codes?', answer: 'An app.', keywords: '', notes: '', published: 1 }],
        children: [
          {
            name: 'Level three',
            description: '',
            notes: '',
            visibility: 1,
            faqs: [{ question: 'Deep?', answer: 'Yes.', keywords: '', notes: '', published: 1 }],
            children: [],
          },
        ],
      },
      { name: 'Private', description: '', notes: '', visibility: 0, faqs: [], children: [] },
      // Public, but without a published FAQ: osTicket's portal does not show it.
      { name: 'Empty', description: '', notes: '', visibility: 1, faqs: [], children: [] },
    ],
  },
];

describeEachDatabase('department, FAQ and SLA operations', (database) => {
  const server = useTestServer({ database });
  let reader: string;
  let everyDefault: string;

  before(async () => {
    reader = (await server.createKey({ scopes: ['read'] })).key;
    everyDefault = (await server.createKey({ scopes: [...DEFAULT_SCOPES] })).key;
    await importFaqs(server.store, TREE);
  });

  const counts = () =>
    withDatabase(database.url, async (db) => {
      const result: number[] = [];
      for (const table of CATALOGUE_TABLES) {
        const { rows } = await sql<{
          n: number;
        }>`select count(*) as n from ${sql.table(table)}`.execute(db);
        result.push(Number(rows[0]?.n));
      }
      return result;
    });
  const call = (body: Record<string, unknown>, method = 'GET', key = server.key) =>
    server.request(body, { method, key });

  test('the admin writes need the admin scope, which no default key has', async () => {
    assert.ok(!DEFAULT_SCOPES.includes('admin'));
    for (const [condition, query, method, parameters] of [
      ['add', 'department', 'POST', { name: 'Nope' }],
      ['add', 'sla', 'POST', { name: 'Nope', grace_period: 1 }],
      ['delete', 'sla', 'DELETE', { id: 1 }],
    ] as const) {
      const reply = await call({ query, condition, parameters }, method, everyDefault);
      assert.equal(reply.status, 403, reply.text);
      assert.equal(reply.body?.code, 'insufficient_scope');
    }
    const wrongMethod = await call({ query: 'sla', condition: 'delete', parameters: { id: 1 } });
    assert.equal(wrongMethod.status, 405);
    assert.match(String(wrongMethod.headers.allow), /DELETE, POST/);
  });

  test('department/add answers the new id; reads show active public departments by name and date', async () => {
    const added = dataOf<string>(
      await call(
        {
          query: 'department',
          condition: 'add',
          parameters: { name: 'Billing', signature: '<b>Bills</b>' },
        },
        'POST',
      ),
    );
    assert.match(added, /^[0-9]+$/);
    const hidden = dataOf<string>(
      await call(
        { query: 'department', condition: 'add', parameters: { name: 'Archive', flags: 8 } },
        'POST',
      ),
    );
    const internal = dataOf<string>(
      await call(
        { query: 'department', condition: 'add', parameters: { name: 'Backoffice', ispublic: 0 } },
        'POST',
      ),
    );
    const byName = dataOf<{ total: number; departments: Record<string, string>[] }>(
      await call({ query: 'department', condition: 'all', sort: 'name' }, 'GET', reader),
    );
    assert.deepEqual(
      byName.departments.map((d) => d.name),
      ['Billing', 'Support'],
    );
    assert.equal(byName.departments[0]?.department_id, added);
    const byDate = dataOf<{ departments: Record<string, string>[] }>(
      await call(
        {
          query: 'department',
          condition: 'all',
          parameters: { start_date: '2000-01-01', end_date: '2100-01-01', limit: 1 },
        },
        'GET',
        reader,
      ),
    );
    assert.equal(byDate.departments.length, 1);
    for (const id of [hidden, internal]) {
      const reply = await call(
        { query: 'department', condition: 'specific', parameters: { id } },
        'GET',
        reader,
      );
      assert.equal(reply.status, 204, `department ${id} is not shown to clients`);
    }
    const duplicate = await call(
      { query: 'department', condition: 'add', parameters: { name: 'Billing' } },
      'POST',
    );
    assert.equal(duplicate.status, 400, duplicate.text);
    assert.match(duplicate.text, /parameters\.name/);
  });

  test('names with < or > never reach a page as markup', async () => {
    const refused = await call(
      {
        query: 'department',
        condition: 'add',
        parameters: { name: '<img src=x onerror=alert(1)>' },
      },
      'POST',
    );
    assert.equal(refused.status, 400);
    const id = dataOf<string>(
      await call(
        {
          query: 'sla',
          condition: 'add',
          parameters: { name: 'Bronze & <b>12h</b>', grace_period: 12, flags: 1 },
        },
        'POST',
      ),
    );
    const plan = dataOf<{ sla: Record<string, string>[] }>(
      await call({ query: 'sla', condition: 'specific', parameters: { id } }, 'GET', reader),
    );
    assert.equal(plan.sla[0]?.name, 'Bronze &amp; &lt;b&gt;12h&lt;/b&gt;');
    assert.equal(plan.sla[0]?.grace_period, '12');
  });

  test('sla/delete: never the default plan; moves departments and tickets off the plan', async () => {
    const refused = await call(
      { query: 'sla', condition: 'delete', parameters: { id: 1 } },
      'DELETE',
    );
    assert.equal(refused.status, 400, refused.text);
    const id = dataOf<string>(
      await call(
        { query: 'sla', condition: 'add', parameters: { name: 'Silver', grace_period: 4 } },
        'POST',
      ),
    );
    const userId = await addUser(server.store);
    const ticket = dataOf<string>(
      await call(ticketAddBody(userId, { sla_id: Number(id) }), 'POST'),
    );
    await withDatabase(database.url, (db) =>
      sql`update departments set sla_id = ${Number(id)} where id = 1`.execute(db),
    );
    assert.equal(
      dataOf<string>(await call({ query: 'sla', condition: 'delete', parameters: { id } }, 'POST')),
      id,
    );
    const [department, stored] = await withDatabase(database.url, async (db) => [
      (await sql<{ sla_id: number }>`select sla_id from departments where id = 1`.execute(db))
        .rows[0],
      (
        await sql<{
          sla_id: number;
        }>`select sla_id from tickets where id = ${Number(ticket)}`.execute(db)
      ).rows[0],
    ]);
    assert.equal(Number(department?.sla_id), 0);
    assert.equal(Number(stored?.sla_id), 1);
    const again = await call({ query: 'sla', condition: 'delete', parameters: { id } }, 'DELETE');
    assert.equal(again.status, 204);
    const grace = await call(
      { query: 'sla', condition: 'add', parameters: { name: 'Too long', grace_period: 8761 } },
      'POST',
    );
    assert.equal(grace.status, 400);
  });

  test('faq/all: the whole tree, any depth, featured included, private and internal left out', async () => {
    const tree = dataOf<{ total: number; categories: Record<string, unknown>[] }>(
      await call({ query: 'faq', condition: 'all' }, 'GET', reader),
    );
    assert.equal(tree.total, 1);
    const top = tree.categories[0] as {
      id: string;
      notes: string;
      faqs: { total: number; faq: { question: string }[] };
      children: Record<
        string,
        | { name: string; children: Record<string, { faqs: { faq: { question: string }[] } }> }
        | number
      >;
    };
    assert.deepEqual(
      top.faqs.faq.map((f) => f.question),
      ['Reset password?', 'Featured one'],
    );
    assert.equal(top.notes, '', 'internal notes stay internal');
    assert.equal(top.children.count, 1, 'the private and the empty categories are left out');
    const second = top.children['0'] as {
      name: string;
      children: Record<string, { faqs: { faq: { question: string }[] } }>;
    };
    assert.equal(second.name, 'Two-factor');
    assert.deepEqual(
      second.children['0']?.faqs.faq.map((f) => f.question),
      ['Deep?'],
    );
    const one = dataOf<{ total: number; faq: { question: string; category: string }[] }>(
      await call(
        { query: 'faq', condition: 'specific', parameters: { id: Number(top.id) } },
        'GET',
        reader,
      ),
    );
    assert.equal(one.total, 2);
    assert.equal(one.faq[0]?.category, top.id);
  });

  test('every injection payload of the original is inert, row counts unchanged', async () => {
    const before = await counts();
    const payloads: [Record<string, unknown>, string][] = [
      [
        {
          query: 'faq',
          condition: 'specific',
          parameters: { id: '0 UNION SELECT apikey,1,1,1,1,1,1,1,1 FROM ost_api_key' },
        },
        'GET',
      ],
      [{ query: 'sla', condition: 'delete', parameters: { id: "1' OR '1'='1" } }, 'DELETE'],
      [{ query: 'sla', condition: 'specific', parameters: { id: '1 OR 1=1' } }, 'GET'],
      [
        {
          query: 'department',
          condition: 'specific',
          parameters: { id: '1; DROP TABLE departments' },
        },
        'GET',
      ],
      [
        {
          query: 'department',
          condition: 'all',
          parameters: { start_date: "2020-01-01' OR '1'='1", end_date: '2030-01-01' },
        },
        'GET',
      ],
      [
        {
          query: 'sla',
          condition: 'all',
          parameters: { start_date: '2020-01-01', end_date: "2030-01-01' OR 1=1 -- " },
        },
        'GET',
      ],
      [
        {
          query: 'sla',
          condition: 'add',
          parameters: { name: 'x', grace_period: '1); DELETE FROM sla; --' },
        },
        'POST',
      ],
      [
        {
          query: 'department',
          condition: 'add',
          parameters: { name: 'x', flags: "4), ('y', (SELECT apikey FROM ost_api_key LIMIT 1), 4" },
        },
        'POST',
      ],
    ];
    for (const [body, method] of payloads) {
      const reply = await call(body, method);
      assert.equal(reply.status, 400, `${JSON.stringify(body)}: ${reply.text}`);
    }
    assert.deepEqual(await counts(), before);
    // Stacked VALUES in a text field are a literal name: one row, nothing copied anywhere.
    const stacked = "Evil', 'sig', 4), ('Copy', (SELECT apikey FROM ost_api_key LIMIT 1), 4) -- ";
    const id = dataOf<string>(
      await call(
        {
          query: 'department',
          condition: 'add',
          parameters: { name: stacked, signature: stacked },
        },
        'POST',
      ),
    );
    const after = await counts();
    assert.deepEqual(
      after,
      before.map((n, i) => (i === 0 ? n + 1 : n)),
    );
    const shown = dataOf<{ departments: { name: string }[] }>(
      await call({ query: 'department', condition: 'specific', parameters: { id } }, 'GET', reader),
    );
    assert.equal(shown.departments[0]?.name, stacked.trim());
  });
});
