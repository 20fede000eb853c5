import * as z from 'zod';
import { faqs } from '../../data/faqs/faqs.ts';
import { CATALOGUE_CURSOR } from '../catalogue-cursor.ts';
import { INT32_MAX, integerField } from '../fields.ts';
import { listAnswer, listParameters, listRequest, readList } from '../list-page.ts';
import { defineOperation } from '../operation.ts';
import { listResponse } from '../response-shapes.ts';
import { FAQ_EXAMPLE, faqViewSchema, toFaqView } from '../views/catalogue-view.ts';

export const faqSpecificParameters = z.strictObject({
  id: integerField(1, INT32_MAX).meta({ description: 'The category id.' }),
  ...listParameters(CATALOGUE_CURSOR, 'FAQs'),
});

export const faqSpecific = defineOperation({
  query: 'faq',
  condition: 'specific',
  methods: ['GET'],
  scope: 'read',
  summary: "The FAQs of one category (the id is the category's), paged",
  description:
    'Needs `read`. The FAQs of the category `parameters.id` (a category id, as in the ' +
    'original), in id order: published and featured FAQs of a public or featured category ' +
    '(every one under DESKGATE_CATALOGUE_VISIBILITY=all). A category that does not exist or is ' +
    'not shown → 204. Paged with `limit` / `after` / `next`.',
  parameters: { '*': faqSpecificParameters },
  response: listResponse('faq', faqViewSchema, 'FAQs', "The category's FAQs in id order."),
  responseExample: { total: 1, faq: [FAQ_EXAMPLE] },
  examples: [{ name: 'by-category', summary: 'The FAQs of category 1', parameters: { id: 1 } }],
  uses: [faqs],
  nothingFound: true,
  errors: ['too_many_results'],
  async handle({ parameters }, { data, config }) {
    const visibility = config.catalogueVisibility;
    const category = await data(faqs).findCategory(parameters.id, visibility);
    if (!category) return undefined;
    const { elements, next } = await readList(
      listRequest(parameters, config, 'FAQs', CATALOGUE_CURSOR),
      (count, after) => data(faqs).listFaqs([category.id], visibility, count, after?.id),
      (faq) => ({ key: '', id: faq.id }),
    );
    return listAnswer(
      'faq',
      elements.map((faq) => toFaqView(faq, visibility)),
      next,
    );
  },
});
