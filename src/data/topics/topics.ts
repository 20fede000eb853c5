import type { Kysely } from 'kysely';
import {
  type ColumnMap,
  columnOf,
  countRows,
  readInOrder,
  selectRows,
} from '../common/column-map.ts';
import { type Param, prepareRead } from '../common/prepared-query.ts';
import { type DataHandle, defineEntity, tablesOf } from '../entity.ts';
import { importOwnTopics } from './import-own-topics.ts';
import { OSTICKET_TOPIC_TABLES, OSTICKET_TOPICS } from './osticket-topics.ts';
import {
  deleteTopics,
  insertTopics,
  OWN_TOPICS,
  type OwnTopicTables,
  updateTopic,
} from './own-topics.ts';
import type { NewTopic, Topic, TopicRow } from './topic.ts';

/** Help topics, as operations and commands see them in every layout. */
export interface TopicData {
  findTopicById(id: number): Promise<Topic | undefined>;
  /** Every topic, in `id` order. */
  listTopics(): Promise<Topic[]>;
  /** Topics in `sort`, then `id` order; with `parentId`, only its children (0: top-level ones). */
  listTopicsInOrder(parentId?: number): Promise<Topic[]>;
  countTopics(): Promise<number>;
  /*
   * The writes below are deskgate's own schema's only: in osTicket mode its admin panel manages
   * the topics.
   */
  /** Inserts all topics in one transaction, or none. */
  readonly insertTopics?: (topics: readonly NewTopic[]) => Promise<Topic[]>;
  /**
   * Imports topics arriving in slices (file order) in one transaction, all or nothing, holding
   * one slice at a time; answers how many. `onStored` hears the stored topics, in the same order
   * and slices, before the commit. Throws TopicImportError for the first topic that does not
   * fit; anything `slices` throws rolls the import back too.
   */
  readonly importTopics?: (
    slices: AsyncIterable<readonly NewTopic[]>,
    onStored?: (topics: readonly Topic[]) => Promise<void>,
  ) => Promise<number>;
  /**
   * Sets every field of topic `id` to `topic`'s and `updated` to now; undefined when there is no
   * such topic.
   */
  readonly updateTopic?: (id: number, topic: Omit<NewTopic, 'id'>) => Promise<Topic | undefined>;
  /** Deletes the topics in one transaction; resolves to how many there were. */
  readonly deleteTopics?: (ids: readonly number[]) => Promise<number>;
}

type TopicReads = Pick<
  TopicData,
  'findTopicById' | 'listTopics' | 'listTopicsInOrder' | 'countTopics'
>;

/**
 * The reads of TopicData, written once against a layout's column map. The look-up by id and the
 * ordered list are prepared: built and compiled once (a topic look-up is the most frequent call).
 */
function topicReads<Table>(map: ColumnMap<Table, TopicRow, Topic>) {
  const byId = prepareRead((db: Kysely<object>, param: Param<{ id: number }>) =>
    selectRows(db, map).where(columnOf(map, 'id'), '=', param('id')),
  );
  const inOrder = (db: Kysely<object>) =>
    selectRows(db, map).orderBy(columnOf(map, 'sort')).orderBy(columnOf(map, 'id'));
  const allInOrder = prepareRead(inOrder);
  const childrenInOrder = prepareRead((db: Kysely<object>, param: Param<{ parentId: number }>) =>
    inOrder(db).where(columnOf(map, 'parent_id'), '=', param('parentId')),
  );
  const toTopics = (rows: readonly object[]) => rows.map((row) => map.toDomain(row as TopicRow));
  return ({ db, reader }: DataHandle): TopicReads => ({
    async findTopicById(id) {
      const [topic] = toTopics(await byId(reader, { id }));
      return topic;
    },
    listTopics: () => readInOrder(selectRows(db, map), map, ['id']),
    async listTopicsInOrder(parentId) {
      return toTopics(
        parentId === undefined
          ? await allInOrder(reader, {})
          : await childrenInOrder(reader, { parentId }),
      );
    },
    countTopics: () => countRows(db, map),
  });
}

const ownReads = topicReads(OWN_TOPICS);
const osticketReads = topicReads(OSTICKET_TOPICS);

export const topics = defineEntity<TopicData>({
  name: 'topics',
  own(handle) {
    const { dialect } = handle;
    const db = tablesOf<OwnTopicTables>(handle.db);
    return {
      ...ownReads(handle),
      insertTopics: (list) => insertTopics(db, dialect, list),
      importTopics: (slices, onStored) => importOwnTopics(db, dialect, slices, onStored),
      updateTopic: (id, topic) => updateTopic(db, id, topic),
      deleteTopics: (ids) => deleteTopics(db, ids),
    };
  },
  osticket: osticketReads,
  osticketRequires: { comment: 'topics: read', tables: OSTICKET_TOPIC_TABLES },
});
