import { type Kysely, sql, type Transaction } from 'kysely';
import type { Dialect } from '../dialects/dialect.ts';
import { now } from '../time.ts';
import { type OwnTopicTables, toOwnTopic } from './own-topics.ts';
import { type NewTopic, type Topic, TopicImportError } from './topic.ts';

/**
 * The import's scratch tables, temporary (one connection's, gone with it): the topics in file
 * order (`id` 0 where the file gives none) and, apart, the ids the file gives, so that checking a
 * parent reads each table once (MySQL cannot open one temporary table twice in a query).
 */
interface StagingTables extends OwnTopicTables {
  topic_import: {
    position: number;
    id: number;
    parent_id: number;
    is_public: number;
    sort: number;
    name: string;
    notes: string;
  };
  topic_import_ids: { id: number };
}

type Staging = Transaction<StagingTables>;

/** Rows per INSERT (7 values each) and per statement that copies or reads back a range. */
const STAGE_SLICE = 1_000;
const COPY_SLICE = 10_000;

const COLUMNS = ['parent_id', 'is_public', 'sort', 'name', 'notes'] as const;

function dropTable(dialect: Dialect, table: string) {
  if (dialect.name === 'mysql') return sql.raw(`drop temporary table if exists ${table}`);
  return sql.raw(`drop table if exists ${dialect.name === 'sqlite' ? 'temp' : 'pg_temp'}.${table}`);
}

/**
 * Made from `topics` itself (`where 1 = 0`), so each column has its type and, on MySQL, the
 * byte-wise collation `name` compares with (docs/decisions/043).
 */
async function createStaging(trx: Staging, dialect: Dialect): Promise<void> {
  for (const table of ['topic_import', 'topic_import_ids'])
    await dropTable(dialect, table).execute(trx);
  await sql`create temporary table topic_import as
    select id as position, id, parent_id, is_public, sort, name, notes from topics where 1 = 0`.execute(
    trx,
  );
  await sql`create temporary table topic_import_ids as select id from topics where 1 = 0`.execute(
    trx,
  );
  await trx.schema
    .createIndex('topic_import_position')
    .on('topic_import')
    .column('position')
    .execute();
  await trx.schema.createIndex('topic_import_ids_id').on('topic_import_ids').column('id').execute();
}

async function dropStaging(trx: Staging, dialect: Dialect): Promise<void> {
  for (const table of ['topic_import', 'topic_import_ids'])
    await dropTable(dialect, table).execute(trx);
}

async function stage(trx: Staging, topics: readonly NewTopic[], from: number): Promise<void> {
  for (let i = 0; i < topics.length; i += STAGE_SLICE) {
    const slice = topics.slice(i, i + STAGE_SLICE);
    await trx
      .insertInto('topic_import')
      .values(
        slice.map((topic, j) => ({
          position: from + i + j + 1,
          id: topic.id ?? 0,
          parent_id: topic.parentId,
          is_public: topic.isPublic ? 1 : 0,
          sort: topic.sort,
          name: topic.name,
          notes: topic.notes,
        })),
      )
      .execute();
    const ids = slice.flatMap((topic) => (topic.id === undefined ? [] : [{ id: topic.id }]));
    if (ids.length > 0) await trx.insertInto('topic_import_ids').values(ids).execute();
  }
}

interface Problem {
  position: number;
  name: string;
  message: string;
}

/**
 * The first topic, in file order, that does not fit, as the checks before streaming found it:
 * an id stored already or earlier in the file, a parent neither stored nor named anywhere in the
 * file, a name its siblings (stored, or earlier in the file) have already.
 */
async function findFirstProblem(trx: Staging): Promise<Problem | undefined> {
  const takenId = await trx
    .selectFrom((eb) =>
      eb
        .selectFrom('topic_import')
        .select(['position', 'id', 'name'])
        .select(sql<number>`row_number() over (partition by id order by position)`.as('nth'))
        .where('id', '<>', 0)
        .as('s'),
    )
    .select(['position', 'id', 'name'])
    .where((eb) =>
      eb.or([
        eb('nth', '>', 1),
        eb.exists(eb.selectFrom('topics as t').select('t.id').whereRef('t.id', '=', 's.id')),
      ]),
    )
    .orderBy('position')
    .limit(1)
    .executeTakeFirst();
  const missingParent = await trx
    .selectFrom('topic_import as s')
    .select(['position', 'parent_id', 'name'])
    .where('parent_id', '<>', 0)
    .where((eb) =>
      eb.and([
        eb.not(
          eb.exists(
            eb.selectFrom('topics as t').select('t.id').whereRef('t.id', '=', 's.parent_id'),
          ),
        ),
        eb.not(
          eb.exists(
            eb
              .selectFrom('topic_import_ids as i')
              .select('i.id')
              .whereRef('i.id', '=', 's.parent_id'),
          ),
        ),
      ]),
    )
    .orderBy('position')
    .limit(1)
    .executeTakeFirst();
  const takenName = await trx
    .selectFrom((eb) =>
      eb
        .selectFrom('topic_import')
        .select(['position', 'parent_id', 'name'])
        .select(
          sql<number>`row_number() over (partition by parent_id, name order by position)`.as('nth'),
        )
        .as('s'),
    )
    .select(['position', 'parent_id', 'name'])
    .where((eb) =>
      eb.or([
        eb('nth', '>', 1),
        eb.exists(
          eb
            .selectFrom('topics as t')
            .select('t.id')
            .whereRef('t.parent_id', '=', 's.parent_id')
            .whereRef('t.name', '=', 's.name'),
        ),
      ]),
    )
    .orderBy('position')
    .limit(1)
    .executeTakeFirst();
  // In position order; at one position, in the order the checks always ran (id, parent, name).
  const problems: Problem[] = [];
  if (takenId)
    problems.push({ ...at(takenId), message: `id ${Number(takenId.id)} is already taken` });
  if (missingParent)
    problems.push({
      ...at(missingParent),
      message: `parent ${Number(missingParent.parent_id)} does not exist`,
    });
  if (takenName)
    problems.push({
      ...at(takenName),
      message: `a topic with this name already exists under parent ${Number(takenName.parent_id)}`,
    });
  return problems.reduce<Problem | undefined>(
    (first, problem) => (first && first.position <= problem.position ? first : problem),
    undefined,
  );
}

function at(row: { position: number; name: string }): { position: number; name: string } {
  return { position: Number(row.position), name: String(row.name) };
}

/**
 * Copies the staged topics into `topics` in ranges of positions: those with an id first, then
 * the sequence moved past them, then the rest in file order, so a generated id never collides
 * with one the file names.
 */
async function store(trx: Staging, dialect: Dialect, count: number): Promise<void> {
  const at = now();
  for (const withId of [true, false]) {
    for (let from = 0; from < count; from += COPY_SLICE) {
      await trx
        .insertInto('topics')
        .columns([...(withId ? (['id'] as const) : []), ...COLUMNS, 'created_at', 'updated_at'])
        .expression((eb) =>
          eb
            .selectFrom('topic_import')
            .select([
              ...(withId ? (['id'] as const) : []),
              ...COLUMNS,
              sql<string>`${at}`.as('created_at'),
              sql<string>`${at}`.as('updated_at'),
            ])
            .where('id', withId ? '<>' : '=', 0)
            .where('position', '>', from)
            .where('position', '<=', from + COPY_SLICE)
            .orderBy('position'),
        )
        .execute();
    }
    if (withId) await dialect.syncIdSequence(trx, 'topics');
  }
}

/** The stored topics of the import, in file order, `COPY_SLICE` at a time. */
async function readBack(
  trx: Staging,
  count: number,
  onStored: (topics: readonly Topic[]) => Promise<void>,
): Promise<void> {
  for (let from = 0; from < count; from += COPY_SLICE) {
    const rows = await trx
      .selectFrom('topic_import as s')
      .innerJoin('topics as t', (join) =>
        join.onRef('t.parent_id', '=', 's.parent_id').onRef('t.name', '=', 's.name'),
      )
      .selectAll('t')
      .where('s.position', '>', from)
      .where('s.position', '<=', from + COPY_SLICE)
      .orderBy('s.position')
      .execute();
    await onStored(rows.map(toOwnTopic));
  }
}

/**
 * Imports topics arriving in slices, in one transaction, all or nothing, holding one slice at a
 * time (docs/decisions/280): staged as they come, checked as a whole at the end, then stored.
 * Throws TopicImportError for the first topic that does not fit; whatever `slices` throws
 * (a bad topic in the file) rolls everything back too.
 */
export async function importOwnTopics(
  db: Kysely<OwnTopicTables>,
  dialect: Dialect,
  slices: AsyncIterable<readonly NewTopic[]>,
  onStored?: (topics: readonly Topic[]) => Promise<void>,
): Promise<number> {
  return db.transaction().execute(async (topicsTrx) => {
    const trx = topicsTrx as unknown as Staging;
    await createStaging(trx, dialect);
    let count = 0;
    for await (const slice of slices) {
      await stage(trx, slice, count);
      count += slice.length;
    }
    const problem = await findFirstProblem(trx);
    if (problem) throw new TopicImportError(problem.position, problem.name, problem.message, count);
    await store(trx, dialect, count);
    if (onStored) await readBack(trx, count, onStored);
    await dropStaging(trx, dialect);
    return count;
  });
}
