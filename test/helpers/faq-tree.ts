import type { FaqCategoryImport } from '../../src/data/faqs/faq.ts';

/** A FAQ three levels deep, with private, featured and internal parts (faq/all, faq/specific). */
export const FAQ_TREE: readonly FaqCategoryImport[] = [
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
