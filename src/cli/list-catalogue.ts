import type { CatalogueReads } from '../data/common/catalogue-page.ts';

const PAGE = 1000;

/** Every department or SLA plan, by name, page by page (the data layer answers pages). */
export async function listCatalogue<T extends { id: number; name: string }>(
  reads: Pick<CatalogueReads<T>, 'list'>,
): Promise<T[]> {
  const all: T[] = [];
  for (;;) {
    const last = all.at(-1);
    const rows = await reads.list({
      order: 'name',
      from: undefined,
      to: undefined,
      visibility: 'all',
      after: last && { key: last.name, id: last.id },
      limit: PAGE,
    });
    all.push(...rows);
    if (rows.length < PAGE) return all;
  }
}
