import type { Kysely } from 'kysely';
import type { NewTopic, Topic } from '../../domain.ts';
import type { Dialect } from '../dialects/dialect.ts';
import type { Database, TopicRow } from '../schema.ts';
import { formatTimestamp, now } from '../time.ts';
import { insertReturningId } from './insert-returning-id.ts';

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

export async function findTopicById(db: Kysely<Database>, id: number): Promise<Topic | undefined> {
  const row = await db.selectFrom('topics').selectAll().where('id', '=', id).executeTakeFirst();
  return row && toTopic(row);
}

export async function listTopics(db: Kysely<Database>): Promise<Topic[]> {
  const rows = await db.selectFrom('topics').selectAll().orderBy('id').execute();
  return rows.map(toTopic);
}

export async function countTopics(db: Kysely<Database>): Promise<number> {
  const row = await db
    .selectFrom('topics')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Inserts in order, so a topic may name a parent inserted earlier in the same batch. */
export async function insertTopics(
  db: Kysely<Database>,
  dialect: Dialect,
  topics: readonly NewTopic[],
): Promise<Topic[]> {
  return db.transaction().execute(async (trx) => {
    const ids: number[] = [];
    for (const topic of topics) {
      const at = now();
      const query = trx.insertInto('topics').values({
        ...(topic.id === undefined ? {} : { id: topic.id }),
        parent_id: topic.parentId,
        is_public: topic.isPublic ? 1 : 0,
        sort: topic.sort,
        name: topic.name,
        notes: topic.notes,
        created_at: at,
        updated_at: at,
      });
      ids.push(await insertReturningId(query, dialect));
    }
    if (topics.some((t) => t.id !== undefined)) await dialect.syncIdSequence(trx, 'topics');
    const rows = await trx.selectFrom('topics').selectAll().where('id', 'in', ids).execute();
    return ids.map((id) => toTopic(rows.find((r) => Number(r.id) === id) as TopicRow));
  });
}
