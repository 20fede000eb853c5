import type { Kysely } from 'kysely';
import type { CatalogueVisibility } from '../../domain.ts';
import {
  type ColumnMap,
  columnOf,
  readInOrder,
  readRows,
  selectVisibleRows,
} from '../common/column-map.ts';
import { defineEntity } from '../entity.ts';
import type { Faq, FaqCategory, FaqCategoryImport, FaqCategoryRow, FaqRow } from './faq.ts';
import { OSTICKET_FAQ_CATEGORIES, OSTICKET_FAQ_TABLES, OSTICKET_FAQS } from './osticket-faqs.ts';
import { importOwnFaqTree, OWN_FAQ_CATEGORIES, OWN_FAQS } from './own-faqs.ts';

/**
 * FAQ categories and FAQs. Under `public` visibility what osTicket's client portal shows:
 * categories public or featured (`ispublic` ≠ 0) and their FAQs published or featured
 * (`ispublished` ≠ 0).
 */
export interface FaqData {
  /** Every category (any depth), in id order. */
  listCategories(visibility: CatalogueVisibility): Promise<FaqCategory[]>;
  findCategory(id: number, visibility: CatalogueVisibility): Promise<FaqCategory | undefined>;
  /** The FAQs of the categories `ids` (every one when undefined), in id order, `limit` at most. */
  listFaqs(
    categoryIds: readonly number[] | undefined,
    visibility: CatalogueVisibility,
    limit: number,
    afterId?: number,
  ): Promise<Faq[]>;
  /**
   * `deskgate faq import`: the whole tree in one transaction (a question already taken anywhere
   * → RejectedValueError('question'), nothing written). deskgate's own schema only: in osTicket
   * mode its agents write the FAQ in the staff panel.
   */
  readonly importCategories?: (
    tree: readonly FaqCategoryImport[],
  ) => Promise<{ categories: number; faqs: number }>;
}

/** The reads of FaqData, written once against a layout's two column maps. */
function faqReads<CategoryTable, FaqTable>(
  db: Kysely<object>,
  categories: ColumnMap<CategoryTable, FaqCategoryRow, FaqCategory>,
  faqs: ColumnMap<FaqTable, FaqRow, Faq>,
): Omit<FaqData, 'importCategories'> {
  return {
    listCategories: (visibility) =>
      readInOrder(selectVisibleRows(db, categories, visibility), categories, ['id']),
    async findCategory(id, visibility) {
      const byId = selectVisibleRows(db, categories, visibility).where(
        columnOf(categories, 'id'),
        '=',
        id,
      );
      const [found] = await readRows(byId, categories);
      return found;
    },
    async listFaqs(categoryIds, visibility, limit, afterId = 0) {
      if (categoryIds?.length === 0) return [];
      const id = columnOf(faqs, 'id');
      let select = selectVisibleRows(db, faqs, visibility).where(id, '>', afterId);
      if (categoryIds) select = select.where(columnOf(faqs, 'category_id'), 'in', categoryIds);
      return readRows(select.orderBy(id).limit(limit), faqs);
    },
  };
}

export const faqs = defineEntity<FaqData>({
  name: 'faqs',
  own: (handle) => ({
    ...faqReads(handle.db, OWN_FAQ_CATEGORIES, OWN_FAQS),
    importCategories: (tree) => importOwnFaqTree(handle.db, handle.dialect, tree),
  }),
  osticket: (handle) => faqReads(handle.db, OSTICKET_FAQ_CATEGORIES, OSTICKET_FAQS),
  osticketRequires: { comment: 'FAQ: read', tables: OSTICKET_FAQ_TABLES },
});
