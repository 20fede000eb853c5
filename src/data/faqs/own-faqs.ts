import type { Generated, Kysely } from 'kysely';
import { type ColumnMap, ownColumns } from '../common/column-map.ts';
import { insertReturningId } from '../common/insert-returning-id.ts';
import { createdAt, type OwnTimestamps } from '../common/own-timestamps.ts';
import { rowExists } from '../common/row-exists.ts';
import type { Dialect } from '../dialects/dialect.ts';
import { tablesOf } from '../entity.ts';
import { RejectedValueError } from '../store.ts';
import { now } from '../time.ts';
import {
  type Faq,
  type FaqCategory,
  type FaqCategoryImport,
  type FaqCategoryRow,
  type FaqRow,
  toFaq,
  toFaqCategory,
} from './faq.ts';

/** deskgate's `faq_categories` (migration 008). */
export interface OwnFaqCategoryTable extends OwnTimestamps {
  id: Generated<number>;
  parent_id: number;
  visibility: number;
  name: string;
  description: string;
  notes: string;
}

/** deskgate's `faqs` (migration 008): a question is unique. */
export interface OwnFaqTable extends OwnTimestamps {
  id: Generated<number>;
  category_id: number;
  published: number;
  question: string;
  answer: string;
  keywords: string;
  notes: string;
}

export interface OwnFaqTables {
  faq_categories: OwnFaqCategoryTable;
  faqs: OwnFaqTable;
}
type Db = Kysely<OwnFaqTables>;

/** FAQ categories on deskgate's own schema; clients see the public and featured ones. */
export const OWN_FAQ_CATEGORIES: ColumnMap<OwnFaqCategoryTable, FaqCategoryRow, FaqCategory> = {
  table: 'faq_categories',
  columns: ownColumns('id', 'parent_id', 'visibility', 'name', 'description', 'notes'),
  isPublic: (eb) => eb('visibility', '<>', 0),
  toDomain: toFaqCategory,
};

/** FAQs on deskgate's own schema; clients see the published and featured ones. */
export const OWN_FAQS: ColumnMap<OwnFaqTable, FaqRow, Faq> = {
  table: 'faqs',
  columns: ownColumns('id', 'category_id', 'published', 'question', 'answer', 'keywords', 'notes'),
  isPublic: (eb) => eb('published', '<>', 0),
  toDomain: toFaq,
};

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
        ...createdAt(at),
      }),
      dialect,
    );
    counts.categories++;
    for (const faq of category.faqs) {
      if (await rowExists(trx, 'faqs', 'question', faq.question)) {
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
          ...createdAt(at),
        })
        .execute();
      counts.faqs++;
    }
    await importTree(trx, dialect, category.children, id, counts, at);
  }
}

/** `deskgate faq import`: the whole tree in one transaction; how many categories and FAQs. */
export async function importOwnFaqTree(
  db: Kysely<object>,
  dialect: Dialect,
  tree: readonly FaqCategoryImport[],
): Promise<{ categories: number; faqs: number }> {
  const counts = { categories: 0, faqs: 0 };
  await dialect.writeTransaction(db, (trx) =>
    importTree(tablesOf<OwnFaqTables>(trx), dialect, tree, 0, counts, now()),
  );
  return counts;
}
