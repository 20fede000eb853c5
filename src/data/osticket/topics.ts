import type { Kysely, Selectable } from 'kysely';
import type { Topic } from '../../domain.ts';
import { formatTimestamp } from '../time.ts';
import type { HelpTopicTable, OsticketDatabase } from './schema.ts';

function toTopic(row: Selectable<HelpTopicTable>): Topic {
  return {
    id: Number(row.topic_id),
    parentId: Number(row.topic_pid),
    isPublic: Number(row.ispublic) === 1,
    isActive: Number(row.isactive) === 1,
    sort: Number(row.sort),
    name: row.topic,
    notes: row.notes ?? '',
    created: formatTimestamp(row.created),
    updated: formatTimestamp(row.updated),
  };
}

const COLUMNS = [
  'topic_id',
  'topic_pid',
  'isactive',
  'ispublic',
  'sort',
  'topic',
  'notes',
  'created',
  'updated',
] as const;

export async function findTopicById(
  db: Kysely<OsticketDatabase>,
  id: number,
): Promise<Topic | undefined> {
  const row = await db
    .selectFrom('help_topic')
    .select(COLUMNS)
    .where('topic_id', '=', id)
    .executeTakeFirst();
  return row && toTopic(row);
}

export async function listTopics(db: Kysely<OsticketDatabase>): Promise<Topic[]> {
  return (await db.selectFrom('help_topic').select(COLUMNS).orderBy('topic_id').execute()).map(
    toTopic,
  );
}

export async function countTopics(db: Kysely<OsticketDatabase>): Promise<number> {
  const row = await db
    .selectFrom('help_topic')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
