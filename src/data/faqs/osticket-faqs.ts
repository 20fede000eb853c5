import type { Kysely, Selectable } from 'kysely';
import type { CatalogueVisibility, Faq, FaqCategory } from '../../domain.ts';
import { type OsticketHandle, tablesOf } from '../entity.ts';
import { managedByOsticket } from '../osticket/managed-by-osticket.ts';
import type { OsticketTableRequirement } from '../osticket/osticket-requirements.ts';
import { formatTimestamp } from '../time.ts';
import type { FaqData } from './faqs.ts';

/** osTicket 1.18.1's `faq_category` and `faq` (schema-1.18.1.sql). */
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

export interface OstFaqTable {
  faq_id: number;
  category_id: number;
  ispublished: number;
  question: string;
  answer: string;
  keywords: string | null;
  notes: string | null;
  created: string;
  updated: string;
}

interface Tables {
  faq_category: OstFaqCategoryTable;
  faq: OstFaqTable;
}
type Db = Kysely<Tables>;

const CATEGORY_COLUMNS = [
  'category_id',
  'category_pid',
  'ispublic',
  'name',
  'description',
  'notes',
  'created',
  'updated',
] as const;
const FAQ_COLUMNS = [
  'faq_id',
  'category_id',
  'ispublished',
  'question',
  'answer',
  'keywords',
  'notes',
  'created',
  'updated',
] as const;

function toCategory(row: Selectable<OstFaqCategoryTable>): FaqCategory {
  return {
    id: Number(row.category_id),
    parentId: Number(row.category_pid ?? 0),
    visibility: Number(row.ispublic),
    name: row.name ?? '',
    description: row.description,
    notes: row.notes,
    created: formatTimestamp(row.created),
    updated: formatTimestamp(row.updated),
  };
}

function toFaq(row: Selectable<OstFaqTable>): Faq {
  return {
    id: Number(row.faq_id),
    categoryId: Number(row.category_id),
    published: Number(row.ispublished),
    question: row.question,
    answer: row.answer,
    keywords: row.keywords,
    notes: row.notes,
    created: formatTimestamp(row.created),
    updated: formatTimestamp(row.updated),
  };
}

function categories(db: Db, visibility: CatalogueVisibility) {
  const select = db.selectFrom('faq_category').select(CATEGORY_COLUMNS);
  return visibility === 'all' ? select : select.where('ispublic', '<>', 0);
}

export const OSTICKET_FAQ_TABLES: readonly OsticketTableRequirement[] = [
  { table: 'faq_category', privileges: ['SELECT'], columns: [...CATEGORY_COLUMNS] },
  { table: 'faq', privileges: ['SELECT'], columns: [...FAQ_COLUMNS] },
];

/** The FAQ of an osTicket database, read-only: its agents write it in the staff panel. */
export function makeOsticketFaqs(handle: OsticketHandle): FaqData {
  const db = tablesOf<Tables>(handle.db);
  return {
    async listCategories(visibility) {
      const rows = await categories(db, visibility).orderBy('category_id').execute();
      return rows.map(toCategory);
    },
    async findCategory(id, visibility) {
      const row = await categories(db, visibility).where('category_id', '=', id).executeTakeFirst();
      return row && toCategory(row);
    },
    async listFaqs(categoryIds, visibility, limit, afterId = 0) {
      if (categoryIds?.length === 0) return [];
      let select = db.selectFrom('faq').select(FAQ_COLUMNS).where('faq_id', '>', afterId);
      if (categoryIds) select = select.where('category_id', 'in', categoryIds);
      if (visibility === 'public') select = select.where('ispublished', '<>', 0);
      const rows = await select.orderBy('faq_id').limit(limit).execute();
      return rows.map(toFaq);
    },
    importCategories: managedByOsticket('FAQ categories and FAQs'),
  };
}
