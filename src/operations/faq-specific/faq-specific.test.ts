import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { dataOf, useCatalogueServer } from '../../../test/helpers/catalogue-server.ts';
import { describeEachDatabaseKind } from '../../../test/helpers/each-database.ts';
import { FAQ_TREE } from '../../../test/helpers/faq-tree.ts';

const specific = (parameters: Record<string, unknown>) => ({
  query: 'faq',
  condition: 'specific',
  parameters,
});

describeEachDatabaseKind('faq/specific', (database) => {
  const suite = useCatalogueServer(database);
  let accounts: string;
  before(async () => {
    await suite.importFaqs(FAQ_TREE);
    const tree = dataOf<{ categories: { id: string }[] }>(
      await suite.request({ query: 'faq', condition: 'all' }, 'GET', suite.readKey),
    );
    accounts = String(tree.categories[0]?.id);
  });

  test("a category's published and featured FAQs in id order, paged", async () => {
    const one = dataOf<{ total: number; faq: { question: string; category: string }[] }>(
      await suite.request(specific({ id: Number(accounts) }), 'GET', suite.readKey),
    );
    assert.equal(one.total, 2);
    assert.equal(one.faq[0]?.category, accounts);
    assert.deepEqual(
      one.faq.map((f) => f.question),
      ['Reset password?', 'Featured one'],
    );
    const first = dataOf<{ faq: { question: string }[]; next?: string }>(
      await suite.request(specific({ id: accounts, limit: 1 }), 'GET', suite.readKey),
    );
    assert.deepEqual(
      first.faq.map((f) => f.question),
      ['Reset password?'],
    );
    const rest = dataOf<{ faq: { question: string }[]; next?: string }>(
      await suite.request(
        specific({ id: accounts, limit: 1, after: first.next }),
        'GET',
        suite.readKey,
      ),
    );
    assert.deepEqual(
      rest.faq.map((f) => f.question),
      ['Featured one'],
    );
    assert.equal(rest.next, undefined);
  });

  test('a category that is not shown or does not exist → 204', async () => {
    for (const id of [999_999]) {
      const reply = await suite.request(specific({ id }), 'GET', suite.readKey);
      assert.equal(reply.status, 204, reply.text);
    }
  });

  test('an injection in the id is a 400 that reads nothing', async () => {
    const before = await suite.countRows();
    const reply = await suite.request(
      specific({ id: '0 UNION SELECT apikey,1,1,1,1,1,1,1,1 FROM ost_api_key' }),
      'GET',
      suite.readKey,
    );
    assert.equal(reply.status, 400, reply.text);
    assert.deepEqual(await suite.countRows(), before);
  });
});
