import type { Generated, Kysely, Selectable } from 'kysely';
import type { CatalogueVisibility, Faq, FaqCategory, FaqCategoryImport } from '../../domain.ts';
import { insertReturningId } from '../common/insert-returning-id.ts';
import type { Dialect } from '../dialects/dialect.ts';
import { type OwnHandle, tablesOf } from '../entity.ts';
import { RejectedValueError } from '../store.ts';
import { now } from '../time.ts';
import type { FaqData } from './faqs.ts';

/** deskgate's `faq_categories` and `faqs` (migration 008). */
export interface OwnFaqCategoryTable {
  id: Generated<number>;
  parent_id: number;
  visibility: number;
  name: string;
  description: string;
  notes: string;
  created_at: string;
  updated_at: string;
}

export interface OwnFaqTable {
  id: Generated<number>;
  category_id: number;
  published: number;
  question: string;
  answer: string;
  keywords: string;
  notes: string;
  created_at: string;
  updated_at: string;
}

interface Tables {
  faq_categories: OwnFaqCategoryTable;
  faqs: OwnFaqTable;
}
type Db = Kysely<Tables>;

function toCategory(row: Selectable<OwnFaqCategoryTable>): FaqCategory {
  return {
    id: Number(row.id),
    parentId: Number(row.parent_id),
    visibility: Number(row.visibility),
    name: row.name,
    description: row.description,
    notes: row.notes,
    created: row.created_at,
    updated: row.updated_at,
  };
}

function toFaq(row: Selectable<OwnFaqTable>): Faq {
  return {
    id: Number(row.id),
    categoryId: Number(row.category_id),
    published: Number(row.published),
    question: row.question,
    answer: row.answer,
    keywords: row.keywords,
    notes: row.notes,
    created: row.created_at,
    updated: row.updated_at,
  };
}

function categories(db: Db, visibility: CatalogueVisibility) {
  const select = db.selectFrom('faq_categories').selectAll();
  return visibility === 'all' ? select : select.where('visibility', '<>', 0);
}

async function importTree(
  trx: Db,
  dialect: Dialect,
  tree: readonly FaqCategoryImport[],
  parentId: number,
  counts: { categories: number; faqs: number },
  at: string,
): Promise<void> {
  for (const category of tree) {
    const id = await insertReturningId(
      trx.insertInto('faq_categories').values({
        parent_id: parentId,
        visibility: category.visibility,
        name: category.name,
        description: category.description,
        notes: category.notes,
        created_at: at,
        updated_at: at,
      }),
      dialect,
    );
    counts.categories++;
    for (const faq of category.faqs) {
      const taken = await trx
        .selectFrom('faqs')
        .select('id')
        .where('question', '=', faq.question)
        .executeTakeFirst();
      if (taken) {
        throw new RejectedValueError('question', `"${faq.question}" is already a FAQ's question`);
      }
      await trx
        .insertInto('faqs')
        .values({
          category_id: id,
          published: faq.published,
          question: faq.question,
          answer: faq.answer,
          keywords: faq.keywords,
          notes: faq.notes,
          created_at: at,
          updated_at: at,
        })
        .execute();
      counts.faqs++;
    }
    await importTree(trx, dialect, category.children, id, counts, at);
  }
}

/** FAQ categories and FAQs on deskgate's own schema. */
export function makeOwnFaqs(handle: OwnHandle): FaqData {
  const db = tablesOf<Tables>(handle.db);
  const { dialect } = handle;
  return {
    async listCategories(visibility) {
      const rows = await categories(db, visibility).orderBy('id').execute();
      return rows.map(toCategory);
    },
    async findCategory(id, visibility) {
      const row = await categories(db, visibility).where('id', '=', id).executeTakeFirst();
      return row && toCategory(row);
    },
    async listFaqs(categoryIds, visibility, limit, afterId = 0) {
      if (categoryIds?.length === 0) return [];
      let select = db.selectFrom('faqs').selectAll().where('id', '>', afterId);
      if (categoryIds) select = select.where('category_id', 'in', categoryIds);
      if (visibility === 'public') select = select.where('published', '<>', 0);
      const rows = await select.orderBy('id').limit(limit).execute();
      return rows.map(toFaq);
    },
    async importCategories(tree) {
      const counts = { categories: 0, faqs: 0 };
      await dialect.writeTransaction(handle.db, (trx) =>
        importTree(tablesOf<Tables>(trx), dialect, tree, 0, counts, now()),
      );
      return counts;
    },
  };
}
