import type { Kysely } from 'kysely';
import type { CatalogueListQuery, CatalogueVisibility } from '../../domain.ts';
import type { OwnHandle, WriteTransaction } from '../entity.ts';
import {
  type ColumnMap,
  columnOf,
  type MappedSelect,
  readRows,
  selectVisibleRows,
} from './column-map.ts';
import { keysetPage } from './keyset.ts';

/** The fields a catalogue list is bounded and ordered by. */
export interface PagedRow {
  id: number;
  created: string;
  name: string;
}

/** The reads of a listed catalogue entity (departments, SLA plans): one by id, a page of a list. */
export interface CatalogueReads<Domain> {
  /** The element `id`, when `visibility` shows it. */
  find(id: number, visibility: CatalogueVisibility): Promise<Domain | undefined>;
  /** A page in (name, id) or (created, id) order, `limit` at most. */
  list(query: CatalogueListQuery): Promise<Domain[]>;
}

/**
 * One page of a catalogue list, the same on every table: the inclusive creation range, then
 * (sort key, id) order after the cursor's position, `limit` rows.
 */
function cataloguePage<Table, Row extends PagedRow, Domain>(
  select: MappedSelect<Table>,
  map: ColumnMap<Table, Row, Domain>,
  query: CatalogueListQuery,
): MappedSelect<Table> {
  const created = columnOf(map, 'created');
  const key = query.order === 'name' ? columnOf(map, 'name') : created;
  return keysetPage(select, { key, id: columnOf(map, 'id'), range: created }, query);
}

/** A catalogue entity's reads, written once against a layout's column map. */
export function catalogueReads<Table, Row extends PagedRow, Domain>(
  db: Kysely<object>,
  map: ColumnMap<Table, Row, Domain>,
): CatalogueReads<Domain> {
  return {
    async find(id, visibility) {
      const byId = selectVisibleRows(db, map, visibility).where(columnOf(map, 'id'), '=', id);
      const [found] = await readRows(byId, map);
      return found;
    },
    list: (query) =>
      readRows(cataloguePage(selectVisibleRows(db, map, query.visibility), map, query), map),
  };
}

/**
 * A command's add on deskgate's own schema: `insert` in a write transaction of its own, then the
 * new element as the reads answer it.
 */
export async function insertAndRead<Domain>(
  { db, dialect }: OwnHandle,
  reads: CatalogueReads<Domain>,
  insert: (trx: WriteTransaction) => Promise<number>,
): Promise<Domain> {
  const id = await dialect.writeTransaction(db, insert);
  const added = await reads.find(id, 'all');
  if (!added) throw new Error(`the new row ${id} was not found after its creation`);
  return added;
}
