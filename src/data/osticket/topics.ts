import type { Kysely, Selectable } from 'kysely';
import type { Topic } from '../../domain.ts';
import { type Param, prepareRead, type Reader } from '../common/prepared-query.ts';
import { formatTimestamp } from '../time.ts';
import type { HelpTopicTable, OsticketDatabase } from './schema.ts';

/** osTicket's `Topic::FLAG_ACTIVE`; archived (4) and disabled (0) topics lack it. */
const FLAG_ACTIVE = 2;

export function toTopic(row: Selectable<HelpTopicTable>): Topic {
  return {
    id: Number(row.topic_id),
    parentId: Number(row.topic_pid),
    isPublic: Number(row.ispublic) === 1,
    isActive: (Number(row.flags ?? 0) & FLAG_ACTIVE) !== 0,
    sort: Number(row.sort),
    name: row.topic,
    notes: row.notes ?? '',
    // DATETIME text as osTicket stored it (its database's clock), never shifted.
    created: formatTimestamp(row.created),
    updated: formatTimestamp(row.updated),
  };
}

/** Exactly the columns deskgate reads; /readyz selects them too. */
export const TOPIC_COLUMNS = [
  'topic_id',
  'topic_pid',
  'ispublic',
  'flags',
  'sort',
  'topic',
  'notes',
  'created',
  'updated',
] as const;

const topicById = prepareRead((db: Kysely<OsticketDatabase>, param: Param<{ id: number }>) =>
  db.selectFrom('help_topic').select(TOPIC_COLUMNS).where('topic_id', '=', param('id')),
);

export async function findTopicById(
  reader: Reader<OsticketDatabase>,
  id: number,
): Promise<Topic | undefined> {
  const [row] = await topicById(reader, { id });
  return row && toTopic(row);
}

export async function listTopics(db: Kysely<OsticketDatabase>): Promise<Topic[]> {
  return (
    await db.selectFrom('help_topic').select(TOPIC_COLUMNS).orderBy('topic_id').execute()
  ).map(toTopic);
}

export async function countTopics(db: Kysely<OsticketDatabase>): Promise<number> {
  const row = await db
    .selectFrom('help_topic')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
