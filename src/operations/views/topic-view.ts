import { z } from 'zod';
import type { Topic } from '../../data/topics/topic.ts';
import { clientRecord } from '../client-records.ts';
import { flagOf, flagText } from './flag-text.ts';

const TIMESTAMP =
  'YYYY-MM-DD HH:MM:SS: UTC on deskgate’s own schema, the database’s clock in osTicket mode.';
const DIGITS = /^[0-9]+$/;

/** A help topic as the interface shows it: every value a string. */
export const topicViewSchema = z
  .strictObject({
    id: z.string().regex(DIGITS),
    parent: z.string().regex(DIGITS).meta({ description: '"0" for a top-level topic.' }),
    ispublic: flagText(),
    sort: z.string().regex(DIGITS).meta({ description: 'Sort position; lists are in this order.' }),
    topic: z.string().meta({ description: 'The topic name.' }),
    notes: z.string().meta({ description: '"" when none.' }),
    created: z.string().meta({ description: TIMESTAMP }),
    updated: z.string().meta({ description: TIMESTAMP }),
  })
  .meta({ description: 'A help topic; every value is a string.' });
clientRecord(topicViewSchema, 'TopicRecord');

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

export function toTopicView(topic: Topic): TopicView {
  return {
    id: String(topic.id),
    parent: String(topic.parentId),
    ispublic: flagOf(topic.isPublic),
    sort: String(topic.sort),
    topic: topic.name,
    notes: topic.notes,
    created: topic.created,
    updated: topic.updated,
  };
}
