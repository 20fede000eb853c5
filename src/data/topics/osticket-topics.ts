import type { Generated, Kysely, Selectable } from 'kysely';
import type { Topic } from '../../domain.ts';
import { type Param, prepareRead, type Reader } from '../common/prepared-query.ts';
import { type OsticketHandle, readerOf, tablesOf } from '../entity.ts';
import { managedByOsticket } from '../osticket/managed-by-osticket.ts';
import { formatTimestamp } from '../time.ts';
import type { TopicData } from './topics.ts';

/**
 * osTicket 1.18.1's `help_topic` (../shared/osticket/schema-1.18.1.sql), the columns deskgate
 * reads. DATETIME columns come back as the text the database holds (the pool sets `dateStrings`).
 */
export interface HelpTopicTable {
  topic_id: Generated<number>;
  topic_pid: number;
  ispublic: number;
  /** Bit value 2: active; 4: archived; neither: disabled (osTicket dropped `isactive` in 1.11). */
  flags: number | null;
  sort: number;
  topic: string;
  notes: string | null;
  created: string;
  updated: string;
}

export interface OsticketTopicTables {
  help_topic: HelpTopicTable;
}

/** osTicket's `Topic::FLAG_ACTIVE`; archived (4) and disabled (0) topics lack it. */
const FLAG_ACTIVE = 2;

/** Exactly the columns deskgate reads; the start and /readyz select them too. */
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

const topicById = prepareRead((db: Kysely<OsticketTopicTables>, param: Param<{ id: number }>) =>
  db.selectFrom('help_topic').select(TOPIC_COLUMNS).where('topic_id', '=', param('id')),
);

export async function findTopicById(
  reader: Reader<OsticketTopicTables>,
  id: number,
): Promise<Topic | undefined> {
  const [row] = await topicById(reader, { id });
  return row && toTopic(row);
}

export async function listTopics(db: Kysely<OsticketTopicTables>): Promise<Topic[]> {
  return (
    await db.selectFrom('help_topic').select(TOPIC_COLUMNS).orderBy('topic_id').execute()
  ).map(toTopic);
}

const inOrder = (db: Kysely<OsticketTopicTables>) =>
  db.selectFrom('help_topic').select(TOPIC_COLUMNS).orderBy('sort').orderBy('topic_id');
const allInOrder = prepareRead(inOrder);
const childrenInOrder = prepareRead(
  (db: Kysely<OsticketTopicTables>, param: Param<{ parentId: number }>) =>
    inOrder(db).where('topic_pid', '=', param('parentId')),
);

/**
 * Topics in `sort`, then `topic_id` order; with `parentId`, only that topic's children. Read
 * from osTicket's real columns (the state is in `flags`; help_topic has no `isactive` since 1.11).
 */
export async function listTopicsInOrder(
  reader: Reader<OsticketTopicTables>,
  parentId?: number,
): Promise<Topic[]> {
  const rows =
    parentId === undefined
      ? await allInOrder(reader, {})
      : await childrenInOrder(reader, { parentId });
  return rows.map(toTopic);
}

export async function countTopics(db: Kysely<OsticketTopicTables>): Promise<number> {
  const row = await db
    .selectFrom('help_topic')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Topics are osTicket's to manage: deskgate reads them. */
export function makeOsticketTopics(handle: OsticketHandle): TopicData {
  const db = tablesOf<OsticketTopicTables>(handle.db);
  const reader = readerOf<OsticketTopicTables>(handle.reader);
  return {
    findTopicById: (id) => findTopicById(reader, id),
    listTopics: () => listTopics(db),
    listTopicsInOrder: (parentId) => listTopicsInOrder(reader, parentId),
    insertTopics: managedByOsticket('help topics'),
    importTopics: managedByOsticket('help topics'),
    updateTopic: managedByOsticket('help topics'),
    deleteTopics: managedByOsticket('help topics'),
    countTopics: () => countTopics(db),
  };
}
