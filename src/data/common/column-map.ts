import {
  type Expression,
  type ExpressionBuilder,
  type Kysely,
  type SelectQueryBuilder,
  type SqlBool,
  sql,
} from 'kysely';
import type { CatalogueVisibility } from '../../domain.ts';
import { OWN_TIMESTAMP_COLUMNS } from './own-timestamps.ts';
import { rowExists } from './row-exists.ts';

/**
 * How one table layout stores one entity's rows (docs/ARCHITECTURE.md, "The two axes"): a query
 * written once against a ColumnMap reads the same `Row` from deskgate's own schema and from an
 * osTicket database, as kysely's queries are written once against its dialects' adapters.
 *
 * `Table` is the layout's table type (declared once, in the entity's layout file), `Row` the
 * entity's row as both layouts answer it (its fields are selected under these names), `Domain`
 * the object operations see.
 */
export interface ColumnMap<Table, Row, Domain> {
  /** The table, as a query names it (osTicket's without its prefix: the plugin adds it). */
  readonly table: string;
  /** The layout's column of each field of the row; null: this layout has none (read as NULL). */
  readonly columns: { readonly [Field in keyof Row]-?: (keyof Table & string) | null };
  /** The rows clients see (`public` visibility), for entities whose reads take a visibility. */
  readonly isPublic?: (eb: ExpressionBuilder<Record<string, Table>, string>) => Expression<SqlBool>;
  /** The domain object of a row: where the layouts store a field differently, each maps its own. */
  readonly toDomain: (row: Row) => Domain;
}

/**
 * The part of a column map where the layout keeps each field in a column of the field's name:
 * `sameNamedColumns('name', 'notes')` is `{ name: 'name', notes: 'notes' }`.
 */
export function sameNamedColumns<const Field extends string>(
  ...fields: Field[]
): { readonly [F in Field]: F } {
  return Object.fromEntries(fields.map((field) => [field, field])) as { [F in Field]: F };
}

/**
 * The columns of one of deskgate's own tables, which keeps each field in a column of its name
 * and the row's times in created_at and updated_at: `ownColumns('id', 'name')` is
 * `{ id: 'id', name: 'name', created: 'created_at', updated: 'updated_at' }`.
 */
export function ownColumns<const Field extends string>(...fields: Field[]) {
  return { ...sameNamedColumns(...fields), ...OWN_TIMESTAMP_COLUMNS };
}

/** The database as a query written against a column map names it: by the map's strings. */
type MappedTables<Table> = Record<string, Table>;

/** A select over a column map's table whose rows are `Row`s (see readRows). */
export type MappedSelect<Table> = SelectQueryBuilder<MappedTables<Table>, string, object>;

/** The name of `field`'s column in this layout. */
function columnName<Table, Row, Domain>(
  map: ColumnMap<Table, Row, Domain>,
  field: keyof Row & string,
): keyof Table & string {
  const column = map.columns[field];
  if (column === null) throw new Error(`${map.table} has no column for ${field}`);
  return column;
}

/** `field`'s column in this layout, to filter or order by. */
export function columnOf<Table, Row, Domain>(
  map: ColumnMap<Table, Row, Domain>,
  field: keyof Row & string,
) {
  return sql.ref<unknown>(columnName(map, field));
}

/** Every field of the map's row from its table, each under the row's name for it. */
export function selectRows<Table, Row, Domain>(
  db: Kysely<object>,
  map: ColumnMap<Table, Row, Domain>,
): MappedSelect<Table> {
  const fields = Object.entries(map.columns) as [string, string | null][];
  return (db as unknown as Kysely<MappedTables<Table>>)
    .selectFrom(map.table)
    .select(
      fields.map(([field, column]) => (column === null ? sql`null` : sql.ref(column)).as(field)),
    );
}

/** selectRows, only the rows clients see under `public` visibility. */
export function selectVisibleRows<Table, Row, Domain>(
  db: Kysely<object>,
  map: ColumnMap<Table, Row, Domain>,
  visibility: CatalogueVisibility,
): MappedSelect<Table> {
  const select = selectRows(db, map);
  const { isPublic } = map;
  if (visibility === 'all') return select;
  if (!isPublic) throw new Error(`${map.table}: no public rows are defined`);
  return select.where((eb) => isPublic(eb));
}

/** The domain objects of a select over `map`'s rows. */
export async function readRows<Table, Row, Domain>(
  select: MappedSelect<Table>,
  map: ColumnMap<Table, Row, Domain>,
): Promise<Domain[]> {
  return (await select.execute()).map((row) => map.toDomain(row as Row));
}

/** The domain objects of `select` over `map`'s rows in `order` (fields), `limit` at most. */
export function readInOrder<Table, Row, Domain>(
  select: MappedSelect<Table>,
  map: ColumnMap<Table, Row, Domain>,
  order: readonly (keyof Row & string)[],
  limit?: number,
): Promise<Domain[]> {
  let ordered = select;
  for (const field of order) ordered = ordered.orderBy(columnOf(map, field));
  return readRows(limit === undefined ? ordered : ordered.limit(limit), map);
}

/** The columns deskgate reads of an osTicket table, for its requirements (start check, /readyz). */
export function mappedColumns<Table, Row, Domain>(map: ColumnMap<Table, Row, Domain>): string[] {
  return Object.values<string | null>(map.columns).filter((column) => column !== null);
}

/** How many rows `map`'s table holds. */
export async function countRows<Table, Row, Domain>(
  db: Kysely<object>,
  map: ColumnMap<Table, Row, Domain>,
): Promise<number> {
  const row = await (db as unknown as Kysely<MappedTables<Table>>)
    .selectFrom(map.table)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Whether a row of `map`'s table holds `value` in `field` (a name already taken, …). */
export function hasRowWith<Table, Row, Domain>(
  db: Kysely<object>,
  map: ColumnMap<Table, Row, Domain>,
  field: keyof Row & string,
  value: unknown,
): Promise<boolean> {
  const tables = db as unknown as Kysely<MappedTables<Table>>;
  return rowExists(tables, map.table, columnName(map, field), value);
}
