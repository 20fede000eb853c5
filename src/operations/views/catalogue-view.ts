import * as z from 'zod';
import type { Department } from '../../data/departments/department.ts';
import type { Faq, FaqCategory } from '../../data/faqs/faq.ts';
import type { SlaPlan } from '../../data/sla-plans/sla-plan.ts';
import type { CatalogueVisibility } from '../../domain.ts';
import { clientRecord } from '../client-records.ts';
import { digitsText } from './digits-text.ts';
import { asDigits, asText, defineView } from './view-definition.ts';

const text = (description: string) => z.string().meta({ description });

const departmentView = defineView<Department>()(
  'DepartmentRecord',
  "A department, with the original's keys (values as strings).",
  {
    department_id: asDigits((department) => department.id, 'The department id.'),
    name: asText((department) => department.name, 'Its name, tag-stripped as osTicket stores it.'),
    created: asText(
      (department) => department.created,
      'When it was created, `YYYY-MM-DD HH:MM:SS`.',
    ),
    parent_id: asDigits(
      (department) => department.parentId,
      'Its parent department; "0" for a top-level one.',
    ),
  },
);

export const { schema: departmentViewSchema, toView: toDepartmentView } = departmentView;

export type DepartmentView = z.output<typeof departmentViewSchema>;

export const DEPARTMENT_EXAMPLE: DepartmentView = {
  department_id: '1',
  name: 'Support',
  created: '2026-11-22 13:10:28',
  parent_id: '0',
};

const slaView = defineView<SlaPlan>()(
  'SlaRecord',
  "An SLA plan, with the original's keys plus schedule_id and updated.",
  {
    sla_id: asDigits((plan) => plan.id, 'The SLA plan id.'),
    flags: asDigits(
      (plan) => plan.flags,
      'Bits: 1 active, 2 escalate, 4 no overdue alerts, 8 transient.',
    ),
    grace_period: asDigits(
      (plan) => plan.gracePeriod,
      'Hours until a ticket on the plan is overdue.',
    ),
    name: asText((plan) => plan.name, 'Its name, HTML-escaped as osTicket stores it.'),
    notes: asText(
      (plan) => plan.notes ?? '',
      'Notes (HTML-escaped); "" when none, as the original answered.',
    ),
    created: asText((plan) => plan.created, 'When it was created.'),
    schedule_id: asDigits(
      (plan) => plan.scheduleId,
      'Its business-hours schedule; "0": the help desk’s default.',
    ),
    updated: asText((plan) => plan.updated, 'When it was last changed.'),
  },
);

export const { schema: slaViewSchema, toView: toSlaView } = slaView;

export type SlaView = z.output<typeof slaViewSchema>;

export const SLA_EXAMPLE: SlaView = {
  sla_id: '1',
  flags: '3',
  grace_period: '18',
  name: 'Default SLA',
  notes: '',
  created: '2026-11-22 13:10:28',
  schedule_id: '0',
  updated: '2026-11-22 13:10:28',
};

export const faqViewSchema = z
  .strictObject({
    id: digitsText('The FAQ id.'),
    category: digitsText('Its category id.'),
    ispublished: digitsText('0 internal, 1 public, 2 featured.'),
    question: text('The question.'),
    answer: text('The answer (HTML, as osTicket stores it).'),
    keywords: z.string().nullable().meta({ description: 'Search keywords; null when none.' }),
    notes: z
      .string()
      .nullable()
      .meta({ description: 'Internal notes: "" unless DESKGATE_CATALOGUE_VISIBILITY=all.' }),
    created: text('When it was created.'),
    updated: text('When it was last changed.'),
  })
  .meta({ description: "A FAQ, with the original's keys (values as strings)." });
clientRecord(faqViewSchema, 'FaqRecord');

export type FaqView = z.output<typeof faqViewSchema>;

export function toFaqView(faq: Faq, visibility: CatalogueVisibility): FaqView {
  return {
    id: String(faq.id),
    category: String(faq.categoryId),
    ispublished: String(faq.published),
    question: faq.question,
    answer: faq.answer,
    keywords: faq.keywords,
    notes: visibility === 'all' ? faq.notes : '',
    created: faq.created,
    updated: faq.updated,
  };
}

export const FAQ_EXAMPLE: FaqView = {
  id: '1',
  category: '1',
  ispublished: '1',
  question: 'How do I reset my password?',
  answer: '<p>Use “Forgot password” on the sign-in page.</p>',
  keywords: 'password',
  notes: '',
  created: '2026-11-22 13:10:28',
  updated: '2026-11-22 13:10:28',
};

/** A category of faq/all: the original's keys, its FAQs, and its sub-categories under "0", "1", …. */
export interface FaqCategoryView {
  id: string;
  parent: string | null;
  ispublic: string;
  name: string;
  description: string;
  notes: string;
  created: string;
  updated: string;
  faqs: { total: number; faq: FaqView[] };
  children: { count: number; [index: string]: FaqCategoryView | number };
}

export const faqCategoryViewSchema: z.ZodType<FaqCategoryView> = z
  .strictObject({
    id: digitsText('The category id.'),
    parent: z
      .string()
      .nullable()
      .meta({ description: 'Its parent category; null for a top-level one.' }),
    ispublic: digitsText('0 private, 1 public, 2 featured.'),
    name: text('Its name.'),
    description: text('Its description (HTML, as osTicket stores it).'),
    notes: text('Internal notes: "" unless DESKGATE_CATALOGUE_VISIBILITY=all.'),
    created: text('When it was created.'),
    updated: text('When it was last changed.'),
    faqs: z.strictObject({
      total: z.int().min(0).meta({ description: 'How many FAQs the category holds here.' }),
      faq: z.array(faqViewSchema),
    }),
    get children() {
      return z
        .object({
          count: z.int().min(0).meta({ description: 'How many sub-categories follow.' }),
        })
        .catchall(faqCategoryViewSchema)
        .meta({
          description:
            'The sub-categories under the keys "0", "1", … (as the original nested them), any depth.',
        });
    },
  })
  .meta({
    description: 'A FAQ category with its FAQs and sub-categories.',
  }) as z.ZodType<FaqCategoryView>;
clientRecord(faqCategoryViewSchema, 'FaqCategoryRecord');

/** Builds the tree of faq/all from every visible category and FAQ (a child of a hidden category is hidden too). */
export function toFaqTree(
  categories: readonly FaqCategory[],
  faqs: readonly Faq[],
  visibility: CatalogueVisibility,
): FaqCategoryView[] {
  const byParent = new Map<number, FaqCategory[]>();
  for (const category of categories) {
    byParent.set(category.parentId, [...(byParent.get(category.parentId) ?? []), category]);
  }
  const faqsOf = new Map<number, FaqView[]>();
  for (const faq of faqs) {
    faqsOf.set(faq.categoryId, [...(faqsOf.get(faq.categoryId) ?? []), toFaqView(faq, visibility)]);
  }
  const known = new Set(categories.map((category) => category.id));
  // osTicket's portal (1.18.1): a subcategory shows only with a published FAQ of its own
  // (Category::getSubCategories); a top-level one with such a FAQ or a public child
  // (include/client/kb-categories.inc.php). `all` answers every category.
  const holdsFaqs = (category: FaqCategory) => (faqsOf.get(category.id)?.length ?? 0) > 0;
  const portalShows = (category: FaqCategory, topLevel: boolean) =>
    visibility === 'all' ||
    holdsFaqs(category) ||
    (topLevel && (byParent.get(category.id)?.length ?? 0) > 0);
  const build = (category: FaqCategory, path: ReadonlySet<number>): FaqCategoryView => {
    const children = (byParent.get(category.id) ?? []).filter(
      (child) => !path.has(child.id) && portalShows(child, false),
    );
    const nested: FaqCategoryView['children'] = { count: children.length };
    children.forEach((child, index) => {
      nested[String(index)] = build(child, new Set([...path, child.id]));
    });
    const own = faqsOf.get(category.id) ?? [];
    return {
      id: String(category.id),
      parent: category.parentId === 0 ? null : String(category.parentId),
      ispublic: String(category.visibility),
      name: category.name,
      description: category.description,
      notes: visibility === 'all' ? category.notes : '',
      created: category.created,
      updated: category.updated,
      faqs: { total: own.length, faq: own },
      children: nested,
    };
  };
  // Top level: no parent, or (under `all`) a parent that does not exist.
  return categories
    .filter(
      (category) =>
        (category.parentId === 0 || (visibility === 'all' && !known.has(category.parentId))) &&
        portalShows(category, true),
    )
    .map((category) => build(category, new Set([category.id])));
}
