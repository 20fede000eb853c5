import type { Generated, Kysely, Selectable } from 'kysely';
import type { NewTopic, Topic } from '../../domain.ts';
import { type Param, prepareRead, type Reader } from '../common/prepared-query.ts';
import type { Dialect } from '../dialects/dialect.ts';
import { type OwnHandle, readerOf, tablesOf } from '../entity.ts';
import { formatTimestamp, now } from '../time.ts';
import { importOwnTopics } from './import-own-topics.ts';
import type { TopicData } from './topics.ts';

/** Timestamps are UTC `YYYY-MM-DD HH:MM:SS` text (see migrations/column-types.ts). */
export interface TopicTable {
  id: Generated<number>;
  parent_id: number;
  is_public: number;
  sort: number;
  name: string;
  notes: string;
  created_at: string;
  updated_at: string;
}

export interface OwnTopicTables {
  topics: TopicTable;
}

type TopicRow = Selectable<TopicTable>;

export function toTopic(row: TopicRow): Topic {
  return {
    id: Number(row.id),
    parentId: Number(row.parent_id),
    isPublic: Number(row.is_public) === 1,
    isActive: true,
    sort: Number(row.sort),
    name: row.name,
    notes: row.notes,
    created: formatTimestamp(row.created_at),
    updated: formatTimestamp(row.updated_at),
  };
}

const topicById = prepareRead((db: Kysely<OwnTopicTables>, param: Param<{ id: number }>) =>
  db.selectFrom('topics').selectAll().where('id', '=', param('id')),
);

export async function findTopicById(
  reader: Reader<OwnTopicTables>,
  id: number,
): Promise<Topic | undefined> {
  const [row] = await topicById(reader, { id });
  return row && toTopic(row);
}

export async function listTopics(db: Kysely<OwnTopicTables>): Promise<Topic[]> {
  const rows = await db.selectFrom('topics').selectAll().orderBy('id').execute();
  return rows.map(toTopic);
}

const inOrder = (db: Kysely<OwnTopicTables>) =>
  db.selectFrom('topics').selectAll().orderBy('sort').orderBy('id');
const allInOrder = prepareRead(inOrder);
const childrenInOrder = prepareRead(
  (db: Kysely<OwnTopicTables>, param: Param<{ parentId: number }>) =>
    inOrder(db).where('parent_id', '=', param('parentId')),
);

/** Topics in `sort`, then `id` order; with `parentId`, only that topic's children. */
export async function listTopicsInOrder(
  reader: Reader<OwnTopicTables>,
  parentId?: number,
): Promise<Topic[]> {
  const rows =
    parentId === undefined
      ? await allInOrder(reader, {})
      : await childrenInOrder(reader, { parentId });
  return rows.map(toTopic);
}

export async function countTopics(db: Kysely<OwnTopicTables>): Promise<number> {
  const row = await db
    .selectFrom('topics')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/**
 * Topics per INSERT statement: 8 values each, 4,000 bound parameters, far below SQLite's 32,766
 * and PostgreSQL's 65,535 limits whatever the size of the import.
 */
const INSERT_SLICE = 500;

function topicKey(parentId: number, name: string): string {
  return `${parentId}/${name}`;
}

/**
 * Writes the batch in `trx` in slices of INSERT_SLICE rows: those with an id first, then the
 * sequence moved past them, then the rest, so a generated id never collides with one the batch
 * names. Reads nothing back.
 */
async function writeTopics(
  trx: Kysely<OwnTopicTables>,
  dialect: Dialect,
  topics: readonly NewTopic[],
): Promise<void> {
  const at = now();
  const withIds = topics.filter((t) => t.id !== undefined);
  const withoutIds = topics.filter((t) => t.id === undefined);
  for (const group of [withIds, withoutIds]) {
    for (let i = 0; i < group.length; i += INSERT_SLICE) {
      const rows = group.slice(i, i + INSERT_SLICE).map((topic) => ({
        ...(topic.id === undefined ? {} : { id: topic.id }),
        parent_id: topic.parentId,
        is_public: topic.isPublic ? 1 : 0,
        sort: topic.sort,
        name: topic.name,
        notes: topic.notes,
        created_at: at,
        updated_at: at,
      }));
      await trx.insertInto('topics').values(rows).execute();
    }
    if (group === withIds && withIds.length > 0)
      await dialect.syncIdSequence<OwnTopicTables>(trx, 'topics');
  }
}

/**
 * Inserts the batch in one transaction, all or nothing. The new rows are found again by (parent,
 * name), which is unique; a parent named by id may be a topic of the same batch.
 */
export async function insertTopics(
  db: Kysely<OwnTopicTables>,
  dialect: Dialect,
  topics: readonly NewTopic[],
): Promise<Topic[]> {
  return db.transaction().execute(async (trx) => {
    await writeTopics(trx, dialect, topics);
    const stored = new Map<string, TopicRow>();
    for (const row of await trx.selectFrom('topics').selectAll().execute())
      stored.set(topicKey(Number(row.parent_id), row.name), row);
    return topics.map((t) => toTopic(stored.get(topicKey(t.parentId, t.name)) as TopicRow));
  });
}

export async function updateTopic(
  db: Kysely<OwnTopicTables>,
  id: number,
  topic: Omit<NewTopic, 'id'>,
): Promise<Topic | undefined> {
  await db
    .updateTable('topics')
    .set({
      parent_id: topic.parentId,
      is_public: topic.isPublic ? 1 : 0,
      sort: topic.sort,
      name: topic.name,
      notes: topic.notes,
      updated_at: now(),
    })
    .where('id', '=', id)
    .execute();
  // Found by reading it again: MySQL counts only changed rows, and an edit may change nothing.
  const row = await db.selectFrom('topics').selectAll().where('id', '=', id).executeTakeFirst();
  return row && toTopic(row);
}

export async function deleteTopics(
  db: Kysely<OwnTopicTables>,
  ids: readonly number[],
): Promise<number> {
  if (ids.length === 0) return 0;
  return db.transaction().execute(async (trx) => {
    let deleted = 0;
    for (let i = 0; i < ids.length; i += INSERT_SLICE) {
      const slice = ids.slice(i, i + INSERT_SLICE);
      const result = await trx.deleteFrom('topics').where('id', 'in', slice).executeTakeFirst();
      deleted += Number(result.numDeletedRows);
    }
    return deleted;
  });
}

export function makeOwnTopics(handle: OwnHandle): TopicData {
  const db = tablesOf<OwnTopicTables>(handle.db);
  const reader = readerOf<OwnTopicTables>(handle.reader);
  return {
    findTopicById: (id) => findTopicById(reader, id),
    listTopics: () => listTopics(db),
    listTopicsInOrder: (parentId) => listTopicsInOrder(reader, parentId),
    insertTopics: (list) => insertTopics(db, handle.dialect, list),
    importTopics: (slices, onStored) => importOwnTopics(db, handle.dialect, slices, onStored),
    countTopics: () => countTopics(db),
    updateTopic: (id, topic) => updateTopic(db, id, topic),
    deleteTopics: (ids) => deleteTopics(db, ids),
  };
}
