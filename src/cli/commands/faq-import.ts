import { faqs } from '../../data/faqs/faqs.ts';
import { requireCapability } from '../../data/osticket/managed-by-osticket.ts';
import { type Command, JSON_OPTION, printJson, UsageError } from '../command.ts';
import { readFaqFile } from '../read-faq-file.ts';
import { usingStore } from '../using-store.ts';

export const faqImport: Command = {
  name: 'faq import',
  usage: 'deskgate faq import FILE [--database URL] [--json]',
  summary:
    'Import FAQ categories (any depth) with their FAQs from a JSON tree, all or nothing (osTicket mode: its admin panel).',
  options: JSON_OPTION,
  positionals: 1,
  async run(input) {
    const path = input.positionals[0];
    if (!path) throw new UsageError('FILE is required');
    const tree = await readFaqFile(path);
    const counts = await usingStore(input.config, [faqs], (store) =>
      requireCapability(store.data(faqs).importCategories, 'FAQ categories and FAQs')(tree),
    );
    if (input.values.json) printJson(input, counts);
    else
      input.out(
        `Imported ${counts.categories} categor${counts.categories === 1 ? 'y' : 'ies'} and ${counts.faqs} FAQ${counts.faqs === 1 ? '' : 's'}.\n`,
      );
  },
};
