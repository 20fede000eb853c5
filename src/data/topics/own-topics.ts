import type { Generated, Kysely, Selectable } from 'kysely';
import { type ColumnMap, ownColumns } from '../common/column-map.ts';
import { createdAt, type OwnTimestamps } from '../common/own-timestamps.ts';
import type { Dialect } from '../dialects/dialect.ts';
import { now } from '../time.ts';
import { type NewTopic, type Topic, type TopicRow, toTopic } from './topic.ts';

/** deskgate's `topics` (migration 001). Timestamps are UTC `YYYY-MM-DD HH:MM:SS` text. */
export interface TopicTable extends OwnTimestamps {
  id: Generated<number>;
  parent_id: number;
  is_public: number;
  sort: number;
  name: string;
  notes: string;
}

export interface OwnTopicTables {
  topics: TopicTable;
}

type TopicTableRow = Selectable<TopicTable>;

/** Help topics on deskgate's own schema: all active (it has no state for them). */
export const OWN_TOPICS: ColumnMap<TopicTable, TopicRow, Topic> = {
  table: 'topics',
  columns: { ...ownColumns('id', 'parent_id', 'is_public', 'sort', 'name', 'notes'), flags: null },
  toDomain: (row) => toTopic(row, true),
};

/** The topic of a `topics` row read whole (the writes read their rows back so). */
export function toOwnTopic(row: TopicTableRow): Topic {
  return toTopic({ ...row, flags: null, created: row.created_at, updated: row.updated_at }, true);
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
        ...createdAt(at),
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
    const stored = new Map<string, TopicTableRow>();
    for (const row of await trx.selectFrom('topics').selectAll().execute())
      stored.set(topicKey(Number(row.parent_id), row.name), row);
    return topics.map((t) => toOwnTopic(stored.get(topicKey(t.parentId, t.name)) as TopicTableRow));
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
  return row && toOwnTopic(row);
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
