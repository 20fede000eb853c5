import { type SelectQueryBuilder, sql } from 'kysely';
import type { CatalogueListQuery } from '../../domain.ts';

/** The columns a catalogue table is listed by: its id, creation time, and name. */
export interface CatalogueColumns {
  id: string;
  created: string;
  name: string;
}

/**
 * One page of a department or SLA list, the same on every table: the inclusive creation range,
 * then (sort key, id) order after the cursor's position, `limit` rows.
 */
export function catalogueRange<DB, TB extends keyof DB, O>(
  select: SelectQueryBuilder<DB, TB, O>,
  columns: CatalogueColumns,
  query: CatalogueListQuery,
): SelectQueryBuilder<DB, TB, O> {
  const created = sql.ref(columns.created);
  const id = sql.ref(columns.id);
  const key = query.order === 'name' ? sql.ref(columns.name) : created;
  let page = select;
  if (query.from !== undefined) page = page.where(sql<boolean>`${created} >= ${query.from}`);
  if (query.to !== undefined) page = page.where(sql<boolean>`${created} <= ${query.to}`);
  const after = query.after;
  if (after) {
    page = page.where(
      sql<boolean>`(${key} > ${after.key} or (${key} = ${after.key} and ${id} > ${after.id}))`,
    );
  }
  return page.orderBy(key).orderBy(id).limit(query.limit);
}
