import * as z from 'zod';
import { faqs } from '../../data/faqs/faqs.ts';
import { DeskgateError } from '../../errors.ts';
import { tooManyResultsMessage } from '../../messages.ts';
import { defineOperation } from '../operation.ts';
import { FAQ_EXAMPLE, faqCategoryViewSchema, toFaqTree } from '../views/catalogue-view.ts';

export const faqAllParameters = z.strictObject({});

export const faqAll = defineOperation({
  query: 'faq',
  condition: 'all',
  methods: ['GET'],
  scope: 'read',
  summary: 'The FAQ category tree, any depth, with its published and featured FAQs',
  description:
    'Needs `read`. The category tree, any depth, each category with its FAQs and its ' +
    'sub-categories under `children` ("0", "1", …, and `count`). What osTicket’s client portal ' +
    'shows: public and featured categories, published and featured FAQs (every row under ' +
    'DESKGATE_CATALOGUE_VISIBILITY=all). More than DESKGATE_MAX_LIST FAQs → 400 ' +
    '`too_many_results` (read each category with faq/specific instead).',
  parameters: { '*': faqAllParameters },
  parametersOptional: true,
  response: z
    .strictObject({
      total: z.int().min(0).meta({ description: 'How many top-level categories.' }),
      categories: z.array(faqCategoryViewSchema),
    })
    .meta({ description: 'The category tree.' }),
  responseExample: {
    total: 1,
    categories: [
      {
        id: '1',
        parent: null,
        ispublic: '1',
        name: 'Accounts',
        description: 'Signing in and out',
        notes: '',
        created: '2026-11-22 13:10:28',
        updated: '2026-11-22 13:10:28',
        faqs: { total: 1, faq: [FAQ_EXAMPLE] },
        children: { count: 0 },
      },
    ],
  },
  examples: [{ name: 'whole-tree', summary: 'The whole FAQ' }],
  uses: [faqs],
  nothingFound: false,
  errors: ['too_many_results'],
  async handle(_selection, { data, config }) {
    const visibility = config.catalogueVisibility;
    const categories = await data(faqs).listCategories(visibility);
    if (categories.length > config.maxList) {
      throw new DeskgateError(
        'too_many_results',
        tooManyResultsMessage('FAQ categories', config.maxList),
      );
    }
    const all = await data(faqs).listFaqs(
      categories.map((category) => category.id),
      visibility,
      config.maxList + 1,
    );
    if (all.length > config.maxList) {
      throw new DeskgateError('too_many_results', tooManyResultsMessage('FAQs', config.maxList));
    }
    const tree = toFaqTree(categories, all, visibility);
    return { total: tree.length, categories: tree };
  },
});
