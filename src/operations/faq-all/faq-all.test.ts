import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { dataOf, useCatalogueServer } from '../../../test/helpers/catalogue-server.ts';
import { describeEachDatabaseKind } from '../../../test/helpers/each-database.ts';
import { FAQ_TREE } from '../../../test/helpers/faq-tree.ts';

interface Category {
  id: string;
  notes: string;
  name: string;
  faqs: { total: number; faq: { question: string }[] };
  children: Record<string, Category | number>;
}

describeEachDatabaseKind('faq/all', (database) => {
  const suite = useCatalogueServer(database);
  before(() => suite.importFaqs(FAQ_TREE));

  test('the whole tree, any depth, featured included, private and internal left out', async () => {
    const tree = dataOf<{ total: number; categories: Category[] }>(
      await suite.request({ query: 'faq', condition: 'all' }, 'GET', suite.readKey),
    );
    assert.equal(tree.total, 1);
    const top = tree.categories[0] as Category;
    assert.deepEqual(
      top.faqs.faq.map((f) => f.question),
      ['Reset password?', 'Featured one'],
    );
    assert.equal(top.notes, '', 'internal notes stay internal');
    assert.equal(top.children.count, 1, 'the private and the empty categories are left out');
    const second = top.children['0'] as Category;
    assert.equal(second.name, 'Two-factor');
    assert.deepEqual(
      (second.children['0'] as Category).faqs.faq.map((f) => f.question),
      ['Deep?'],
    );
  });
});
