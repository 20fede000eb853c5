import type { NewTopic, Topic } from '../../domain.ts';
import { defineEntity } from '../entity.ts';
import { makeOsticketTopics, TOPIC_COLUMNS } from './osticket-topics.ts';
import { makeOwnTopics } from './own-topics.ts';

/** Help topics, as operations and commands see them in every layout. */
export interface TopicData {
  findTopicById(id: number): Promise<Topic | undefined>;
  /** Every topic, in `id` order. */
  listTopics(): Promise<Topic[]>;
  /** Topics in `sort`, then `id` order; with `parentId`, only its children (0: top-level ones). */
  listTopicsInOrder(parentId?: number): Promise<Topic[]>;
  /** Inserts all topics in one transaction, or none (osTicket mode: UnsupportedInModeError). */
  insertTopics(topics: readonly NewTopic[]): Promise<Topic[]>;
  /** As insertTopics, but answers only the count: nothing is read back (large imports). */
  importTopics(topics: readonly NewTopic[]): Promise<number>;
  countTopics(): Promise<number>;
  /**
   * Sets every field of topic `id` to `topic`'s and `updated` to now; undefined when there is no
   * such topic (osTicket mode: UnsupportedInModeError).
   */
  updateTopic(id: number, topic: Omit<NewTopic, 'id'>): Promise<Topic | undefined>;
  /** Deletes the topics in one transaction; resolves to how many there were. */
  deleteTopics(ids: readonly number[]): Promise<number>;
}

export const topics = defineEntity<TopicData>({
  name: 'topics',
  own: makeOwnTopics,
  osticket: makeOsticketTopics,
  osticketRequires: {
    comment: 'topics: read',
    tables: [{ table: 'help_topic', privileges: ['SELECT'], columns: TOPIC_COLUMNS }],
  },
});
