import { type Kysely, sql } from 'kysely';

/**
 * An index deskgate's reads need that osTicket 1.18.1's schema does not have (decision 333):
 * without it, the read it names scans the whole table on every call.
 */
export interface OsticketReadIndex {
  /** osTicket's table, without the prefix. */
  table: string;
  /** The index deskgate adds; its name says whose it is. */
  name: string;
  column: string;
  /** The read it serves, for the start-up line and the guide. */
  slows: string;
}

export const OSTICKET_READ_INDEXES: readonly OsticketReadIndex[] = [
  {
    table: 'ticket',
    name: 'deskgate_lastupdate',
    column: 'lastupdate',
    slows:
      'ticket/all by lastUpdateDate (the sync poll) reads and sorts every ticket for each page',
  },
  {
    table: 'ticket',
    name: 'deskgate_number',
    column: 'number',
    slows: 'ticket/specific by number scans the tickets up to the one asked for',
  },
  {
    table: 'user',
    name: 'deskgate_created',
    column: 'created',
    slows: 'user/all reads and sorts every user for each page',
  },
];

/** Rows above which a missing index is worth a warning: below, a scan costs next to nothing. */
export const LARGE_TABLE_ROWS = 10_000;

const quoted = (name: string) => `\`${name.replaceAll('`', '``')}\``;

/** The statement that adds `index` (online in InnoDB: reads and writes go on meanwhile). */
export function addIndexSql(prefix: string, index: OsticketReadIndex): string {
  return `ALTER TABLE ${quoted(prefix + index.table)} ADD INDEX ${quoted(index.name)} (${quoted(index.column)});`;
}

/** The statement that takes it away again. */
export function dropIndexSql(prefix: string, index: OsticketReadIndex): string {
  return `ALTER TABLE ${quoted(prefix + index.table)} DROP INDEX ${quoted(index.name)};`;
}

/** One of deskgate's read indexes and what the database says of it. */
export interface ReadIndexState {
  index: OsticketReadIndex;
  /** Whether some index (deskgate's or one of the admin's own) begins with the column. */
  present: boolean;
  /** The table's approximate row count (information_schema's estimate). */
  rows: number;
}

/** Which of deskgate's read indexes the osTicket database has, and how large each table is. */
export async function readIndexStates(
  db: Kysely<object>,
  prefix: string,
): Promise<ReadIndexState[]> {
  const tables = [...new Set(OSTICKET_READ_INDEXES.map((index) => prefix + index.table))];
  const leading = await sql<{ table_name: string; column_name: string }>`
    select table_name as table_name, column_name as column_name
    from information_schema.statistics
    where table_schema = database() and seq_in_index = 1 and table_name in (${sql.join(tables)})`.execute(
    db,
  );
  const sizes = await sql<{ table_name: string; table_rows: number | string | null }>`
    select table_name as table_name, table_rows as table_rows
    from information_schema.tables
    where table_schema = database() and table_name in (${sql.join(tables)})`.execute(db);
  return OSTICKET_READ_INDEXES.map((index) => ({
    index,
    present: leading.rows.some(
      (row) =>
        row.table_name === prefix + index.table && row.column_name.toLowerCase() === index.column,
    ),
    rows: Number(
      sizes.rows.find((row) => row.table_name === prefix + index.table)?.table_rows ?? 0,
    ),
  }));
}

/** The line deskgate logs for a read index missing on a large table. */
export function missingIndexMessage(prefix: string, state: ReadIndexState): string {
  return `${prefix}${state.index.table} (about ${state.rows} rows) has no index on ${state.index.column}: ${state.index.slows}; \`deskgate osticket indexes\` prints the statement, --apply runs it`;
}

/** The read indexes missing on tables of LARGE_TABLE_ROWS rows or more. */
export async function missingReadIndexes(
  db: Kysely<object>,
  prefix: string,
): Promise<ReadIndexState[]> {
  return (await readIndexStates(db, prefix)).filter(
    (state) => !state.present && state.rows >= LARGE_TABLE_ROWS,
  );
}
