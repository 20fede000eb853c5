import { z } from 'zod';
import { topics } from '../../data/topics/topics.ts';
import { INT32_MAX, integerField } from '../fields.ts';
import { defineOperation, NO_SORT } from '../operation.ts';
import { isTopicVisible } from '../topic-visibility.ts';
import { TOPIC_EXAMPLE, topicViewSchema, toTopicView } from '../views/topic-view.ts';

/** Its parameters, by `sort` (it takes none). */
export const topicsAllParameters = {
  [NO_SORT]: z.strictObject({
    parent: integerField(0, INT32_MAX)
      .optional()
      .meta({ description: 'Only the children of this topic; 0 for top-level topics.' }),
  }),
};

export const topicsAllResponse = z
  .strictObject({
    total: z.int().min(0).meta({ description: 'How many topics `topics` holds.' }),
    topics: z.array(topicViewSchema),
  })
  .meta({ description: 'The topics, in `sort` then `id` order.' });

export const topicsAll = defineOperation({
  query: 'topics',
  condition: 'all',
  methods: ['GET'],
  scope: 'read',
  summary: 'List help topics',
  description:
    'Needs the `read` scope. Every topic the look-up by id would return (same visibility ' +
    'rules), in `sort` then `id` order. `parameters` may be left out; `parameters.parent` ' +
    'keeps the children of one topic (`0`: top-level topics only, what the original service ' +
    'returned). No topic → 200 with `total` 0 and an empty list.',
  parameters: topicsAllParameters,
  parametersOptional: true,
  response: topicsAllResponse,
  responseExample: { total: 1, topics: [TOPIC_EXAMPLE] },
  examples: [
    { name: 'all', summary: 'Every topic' },
    { name: 'top-level', summary: 'Top-level topics only', parameters: { parent: 0 } },
  ],
  uses: [topics],
  nothingFound: false,
  async handle({ parameters }, { data, config }) {
    const visible = (await data(topics).listTopicsInOrder(parameters.parent))
      .filter((topic) => isTopicVisible(topic, config))
      .map(toTopicView);
    return { total: visible.length, topics: visible };
  },
});
