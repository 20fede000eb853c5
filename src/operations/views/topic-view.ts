import type * as z from 'zod';
import type { Topic } from '../../data/topics/topic.ts';
import { asDigits, asFlag, asText, asTimestamp, defineView } from './view-definition.ts';

/** A help topic as the interface shows it: every value a string. */
const topicView = defineView<Topic>()('TopicRecord', 'A help topic; every value is a string.', {
  id: asDigits((topic) => topic.id),
  parent: asDigits((topic) => topic.parentId, '"0" for a top-level topic.'),
  ispublic: asFlag((topic) => topic.isPublic),
  sort: asDigits((topic) => topic.sort, 'Sort position; lists are in this order.'),
  topic: asText((topic) => topic.name, 'The topic name.'),
  notes: asText((topic) => topic.notes, '"" when none.'),
  created: asTimestamp((topic) => topic.created),
  updated: asTimestamp((topic) => topic.updated),
});

export const { schema: topicViewSchema, toView: toTopicView } = topicView;

export type TopicView = z.output<typeof topicViewSchema>;

/** A topic the documents show in examples: the first default topic of a fresh install. */
export const TOPIC_EXAMPLE: TopicView = {
  id: '1',
  parent: '0',
  ispublic: '1',
  sort: '0',
  topic: 'General Inquiry',
  notes: 'Questions about products or services',
  created: '2026-11-22 04:36:00',
  updated: '2026-11-22 04:36:00',
};
