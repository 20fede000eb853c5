import { readFile } from 'node:fs/promises';
import * as z from 'zod';
import type { FaqCategoryImport } from '../data/faqs/faq.ts';
import { integerField } from '../operations/fields.ts';
import { textField } from '../operations/plain-text.ts';
import { CommandError } from './command.ts';
import { hasControlCharactersInText } from './control-characters.ts';

const longText = z
  .string()
  .max(65_535, { error: 'must be at most 65535 characters' })
  .refine((v) => !hasControlCharactersInText(v), {
    error: 'must not contain control characters other than tab and line breaks',
  })
  .default('');

const faqInput = z.strictObject({
  question: textField(255, 'The question'),
  answer: longText,
  keywords: longText,
  notes: longText,
  /** 0 internal, 1 public (the default), 2 featured. */
  published: integerField(0, 2).default(1).transform(Number),
});

const categoryInput: z.ZodType<FaqCategoryImport, unknown> = z.lazy(() =>
  z.strictObject({
    name: textField(125, 'The name'),
    description: longText,
    notes: longText,
    /** 0 private, 1 public (the default), 2 featured. */
    visibility: integerField(0, 2).default(1).transform(Number),
    faqs: z.array(faqInput).default([]),
    children: z.array(categoryInput).default([]),
  }),
);

const treeInput = z.array(categoryInput).min(1, { error: 'must hold at least one category' });

/**
 * A FAQ tree for `deskgate faq import`: a JSON array of categories, each with `faqs` and
 * `children` (categories, to any depth). A CommandError names the file and the first bad field.
 */
export async function readFaqFile(path: string): Promise<FaqCategoryImport[]> {
  let text: string;
  try {
    text = (await readFile(path, 'utf8')).replace(/^\uFEFF/, '');
  } catch (error) {
    throw new CommandError(
      `cannot read ${path}: ${(error as NodeJS.ErrnoException).code ?? 'error'}`,
    );
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new CommandError(`${path}: not JSON; nothing was imported`);
  }
  const parsed = treeInput.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue?.path.length ? ` at ${issue.path.join('.')}` : '';
    throw new CommandError(
      `${path}${where}: ${issue?.message ?? 'is not valid'}; nothing was imported`,
    );
  }
  return parsed.data;
}
