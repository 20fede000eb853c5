import type { CatalogueVisibility, Faq, FaqCategory, FaqCategoryImport } from '../../domain.ts';
import { defineEntity } from '../entity.ts';
import { makeOsticketFaqs, OSTICKET_FAQ_TABLES } from './osticket-faqs.ts';
import { makeOwnFaqs } from './own-faqs.ts';

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
   * → RejectedValueError('question'), nothing written). osTicket mode: UnsupportedInModeError.
   */
  importCategories(
    tree: readonly FaqCategoryImport[],
  ): Promise<{ categories: number; faqs: number }>;
}

export const faqs = defineEntity<FaqData>({
  name: 'faqs',
  own: makeOwnFaqs,
  osticket: makeOsticketFaqs,
  osticketRequires: { comment: 'FAQ: read', tables: OSTICKET_FAQ_TABLES },
});
