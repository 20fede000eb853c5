import { faqs } from '../../data/faqs/faqs.ts';
import { type Command, JSON_OPTION, printJson } from '../command.ts';
import { formatTable } from '../format-table.ts';
import { usingStore } from '../using-store.ts';

const VISIBILITY = ['private', 'public', 'featured'];
const PUBLISHED = ['internal', 'public', 'featured'];

export const faqList: Command = {
  name: 'faq list',
  usage: 'deskgate faq list [--database URL] [--json]',
  summary: 'List every FAQ category and FAQ, private and internal ones too.',
  options: JSON_OPTION,
  positionals: 0,
  async run(input) {
    const [categories, questions] = await usingStore(input.config, [faqs], async (store) => {
      const data = store.data(faqs);
      return [
        await data.listCategories('all'),
        await data.listFaqs(undefined, 'all', Number.MAX_SAFE_INTEGER),
      ] as const;
    });
    if (input.values.json) {
      printJson(
        input,
        categories.map((c) => ({
          id: c.id,
          parent: c.parentId,
          name: c.name,
          visibility: VISIBILITY[c.visibility] ?? String(c.visibility),
          faqs: questions
            .filter((f) => f.categoryId === c.id)
            .map((f) => ({
              id: f.id,
              question: f.question,
              published: PUBLISHED[f.published] ?? String(f.published),
            })),
        })),
      );
      return;
    }
    input.out(
      formatTable(
        ['CATEGORY', 'PARENT', 'VISIBILITY', 'FAQ', 'PUBLISHED', 'NAME / QUESTION'],
        categories.flatMap((c) => [
          [String(c.id), String(c.parentId), VISIBILITY[c.visibility] ?? '', '', '', c.name],
          ...questions
            .filter((f) => f.categoryId === c.id)
            .map((f) => [
              String(c.id),
              '',
              '',
              String(f.id),
              PUBLISHED[f.published] ?? '',
              `  ${f.question}`,
            ]),
        ]),
      ),
    );
  },
};
