import { formatTimestamp } from '../time.ts';

/** A FAQ category: `visibility` 0 private, 1 public, 2 featured (osTicket's `ispublic`). */
export interface FaqCategory {
  id: number;
  /** 0: a top-level category. */
  parentId: number;
  visibility: number;
  name: string;
  description: string;
  notes: string;
  created: string;
  updated: string;
}

/** A FAQ's words, under the same names in the FAQ, its row and osTicket's `faq`. */
export interface FaqWords {
  question: string;
  answer: string;
  keywords: string | null;
  notes: string | null;
}

/** A FAQ: `published` 0 internal, 1 public, 2 featured (osTicket's `ispublished`). */
export interface Faq extends FaqWords {
  id: number;
  categoryId: number;
  published: number;
  created: string;
  updated: string;
}

/** A FAQ category to import, with its FAQs and sub-categories (`deskgate faq import`). */
export interface FaqCategoryImport {
  name: string;
  description: string;
  notes: string;
  visibility: number;
  faqs: { question: string; answer: string; keywords: string; notes: string; published: number }[];
  children: FaqCategoryImport[];
}

/** A FAQ category row as both layouts' column maps answer it. */
export interface FaqCategoryRow {
  id: number;
  parent_id: number | null;
  visibility: number;
  name: string | null;
  description: string;
  notes: string;
  created: string;
  updated: string;
}

/** A FAQ row as both layouts' column maps answer it. */
export interface FaqRow extends FaqWords {
  id: number;
  category_id: number;
  published: number;
  created: string;
  updated: string;
}

export function toFaqCategory(row: FaqCategoryRow): FaqCategory {
  return {
    id: Number(row.id),
    parentId: Number(row.parent_id ?? 0),
    visibility: Number(row.visibility),
    name: row.name ?? '',
    description: row.description,
    notes: row.notes,
    created: formatTimestamp(row.created),
    updated: formatTimestamp(row.updated),
  };
}

export function toFaq(row: FaqRow): Faq {
  return {
    id: Number(row.id),
    categoryId: Number(row.category_id),
    published: Number(row.published),
    question: row.question,
    answer: row.answer,
    keywords: row.keywords,
    notes: row.notes,
    created: formatTimestamp(row.created),
    updated: formatTimestamp(row.updated),
  };
}
