import type { NewTopic, Topic } from '../../domain.ts';
import { defineEntity } from '../entity.ts';
import { StoreError } from '../store.ts';
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
  /**
   * Imports topics arriving in slices (file order) in one transaction, all or nothing, holding
   * one slice at a time; answers how many. `onStored` hears the stored topics, in the same order
   * and slices, before the commit. Throws TopicImportError for the first topic that does not
   * fit; anything `slices` throws rolls the import back too (osTicket mode: UnsupportedInModeError).
   */
  importTopics(
    slices: AsyncIterable<readonly NewTopic[]>,
    onStored?: (topics: readonly Topic[]) => Promise<void>,
  ): Promise<number>;
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

/** A topic of an import that does not fit what is stored or the rest of the import. */
export class TopicImportError extends StoreError {
  override name = 'TopicImportError';
  /** 1-based, in import order. */
  readonly position: number;
  readonly topicName: string;
  /** e.g. `parent 12 does not exist`. */
  readonly problem: string;
  /** How many topics the import had. */
  readonly count: number;
  constructor(position: number, topicName: string, problem: string, count: number) {
    super(`topic ${position} ("${topicName}"): ${problem}`);
    this.position = position;
    this.topicName = topicName;
    this.problem = problem;
    this.count = count;
  }
}
