import { z } from 'zod';
import type { Topic } from '../../domain.ts';
import { DeskgateError } from '../../errors.ts';
import { INT32_MAX, integerField } from '../fields.ts';
import { defineOperation } from '../operation.ts';
import { isTopicVisible } from '../topic-visibility.ts';

/** The topic as the interface shows it: every value a string. */
export interface TopicView {
  id: string;
  parent: string;
  ispublic: string;
  sort: string;
  topic: string;
  notes: string;
  created: string;
  updated: string;
}

export function toTopicView(topic: Topic): TopicView {
  return {
    id: String(topic.id),
    parent: String(topic.parentId),
    ispublic: topic.isPublic ? '1' : '0',
    sort: String(topic.sort),
    topic: topic.name,
    notes: topic.notes,
    created: topic.created,
    updated: topic.updated,
  };
}

export const topicsSpecific = defineOperation({
  query: 'topics',
  condition: 'specific',
  methods: ['GET'],
  scope: 'read',
  parameters: z.strictObject({ id: integerField(1, INT32_MAX) }),
  // The PHP service required `sort: "id"`; it is optional here but still only "id".
  checkBody: (body) =>
    body.sort === undefined || body.sort === 'id' ? undefined : 'sort must be "id" when given',
  async handle({ id }, { store, config }) {
    const topic = await store.findTopicById(id);
    if (!topic || !isTopicVisible(topic, config)) {
      throw new DeskgateError('not_found', 'No items found.');
    }
    return { total: 1, topic: toTopicView(topic) };
  },
});
