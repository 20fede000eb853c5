import { type ColumnMap, mappedColumns } from '../common/column-map.ts';
import type { OsticketTableRequirement } from '../osticket/osticket-requirements.ts';
import {
  type Faq,
  type FaqCategory,
  type FaqCategoryRow,
  type FaqRow,
  type FaqWords,
  toFaq,
  toFaqCategory,
} from './faq.ts';

/** osTicket 1.18.1's `faq_category` (schema-1.18.1.sql). */
export interface OstFaqCategoryTable {
  category_id: number;
  category_pid: number | null;
  ispublic: number;
  name: string | null;
  description: string;
  notes: string;
  created: string;
  updated: string;
}

/** osTicket 1.18.1's `faq`. */
export interface OstFaqTable extends FaqWords {
  faq_id: number;
  category_id: number;
  ispublished: number;
  created: string;
  updated: string;
}

/** osTicket's FAQ categories; its client portal shows the public and featured ones. */
export const OSTICKET_FAQ_CATEGORIES: ColumnMap<OstFaqCategoryTable, FaqCategoryRow, FaqCategory> =
  {
    table: 'faq_category',
    columns: {
      id: 'category_id',
      parent_id: 'category_pid',
      visibility: 'ispublic',
      name: 'name',
      description: 'description',
      notes: 'notes',
      created: 'created',
      updated: 'updated',
    },
    isPublic: (eb) => eb('ispublic', '<>', 0),
    toDomain: toFaqCategory,
  };

/** osTicket's FAQs; its client portal shows the published and featured ones. */
export const OSTICKET_FAQS: ColumnMap<OstFaqTable, FaqRow, Faq> = {
  table: 'faq',
  columns: {
    id: 'faq_id',
    category_id: 'category_id',
    published: 'ispublished',
    question: 'question',
    answer: 'answer',
    keywords: 'keywords',
    notes: 'notes',
    created: 'created',
    updated: 'updated',
  },
  isPublic: (eb) => eb('ispublished', '<>', 0),
  toDomain: toFaq,
};

/** Read only: osTicket's agents write the FAQ in its staff panel. */
export const OSTICKET_FAQ_TABLES: readonly OsticketTableRequirement[] = [
  {
    table: 'faq_category',
    privileges: ['SELECT'],
    columns: mappedColumns(OSTICKET_FAQ_CATEGORIES),
  },
  { table: 'faq', privileges: ['SELECT'], columns: mappedColumns(OSTICKET_FAQS) },
];
