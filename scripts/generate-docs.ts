/**
 * Writes the docs' generated tables between their markers (`<!-- NAME:begin -->` and
 * `<!-- NAME:end -->`): the README's operation and configuration tables, and docs/SECURITY.md's
 * scopes. test/docs/generated-docs.test.ts fails when a file is not what this script writes now.
 *
 * Usage: node scripts/generate-docs.ts          (writes the files)
 *        node scripts/generate-docs.ts --check  (exit 1 when one differs)
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { configTable } from './docs-tables/config-table.ts';
import { operationTable, scopeTable } from './docs-tables/operation-tables.ts';

const ROOT = join(fileURLToPath(import.meta.url), '..', '..');

/** Each generated block: the file (from the repository's root), its markers' name, its table. */
export const DOC_BLOCKS = [
  { file: 'README.md', name: 'operations', table: operationTable },
  { file: 'README.md', name: 'config', table: configTable },
  { file: 'docs/SECURITY.md', name: 'scopes', table: scopeTable },
] as const;

/** `text` with the block `name` written afresh between its markers. */
export function withBlock(text: string, name: string, table: string): string {
  const begin = `<!-- ${name}:begin -->`;
  const end = `<!-- ${name}:end -->`;
  const from = text.indexOf(begin);
  const to = text.indexOf(end);
  if (from < 0 || to < from) throw new Error(`${begin} … ${end} missing`);
  return `${text.slice(0, from + begin.length)}\n${table}\n${text.slice(to)}`;
}

/** A file as it is, and as this script writes it. */
export interface GeneratedFile {
  path: string;
  current: string;
  generated: string;
}

/** Every file holding a generated block, read now and written afresh. */
export function generatedFiles(): GeneratedFile[] {
  const files = [...new Set(DOC_BLOCKS.map((block) => block.file))];
  return files.map((file) => {
    const path = join(ROOT, file);
    const current = readFileSync(path, 'utf8');
    const generated = DOC_BLOCKS.filter((block) => block.file === file).reduce(
      (text, block) => withBlock(text, block.name, block.table()),
      current,
    );
    return { path, current, generated };
  });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  for (const { path, current, generated } of generatedFiles()) {
    if (generated === current) continue;
    if (process.argv[2] === '--check') process.exitCode = 1;
    else writeFileSync(path, generated);
  }
}
