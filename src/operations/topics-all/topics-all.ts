import * as z from 'zod';
import { topics } from '../../data/topics/topics.ts';
import { INT32_MAX, integerField } from '../fields.ts';
import { listAnswer, listParameters, listRequest, readList } from '../list-page.ts';
import { defineOperation, NO_SORT } from '../operation.ts';
import { isTopicVisible } from '../topic-visibility.ts';
import { TOPIC_EXAMPLE, topicViewSchema, toTopicView } from '../views/topic-view.ts';
import { isAfter, TOPIC_CURSOR } from './topic-cursor.ts';

/** Its parameters, by `sort` (it takes none). */
export const topicsAllParameters = {
  [NO_SORT]: z.strictObject({
    parent: integerField(0, INT32_MAX)
      .optional()
      .meta({ description: 'Only the children of this topic; 0 for top-level topics.' }),
    ...listParameters(TOPIC_CURSOR, 'Topics'),
  }),
};

export const topicsAllResponse = z
  .strictObject({
    total: z.int().min(0).meta({
      description:
        'How many topics `topics` holds: every match without `limit`, this page with it.',
    }),
    topics: z.array(topicViewSchema),
    next: z
      .string()
      .optional()
      .meta({ description: 'Present when more topics follow: pass it as `parameters.after`.' }),
  })
  .meta({ description: 'The topics, or one page of them, in `sort` then `id` order.' });

export const topicsAll = defineOperation({
  query: 'topics',
  condition: 'all',
  methods: ['GET'],
  scope: 'read',
  summary: 'List every help topic; parent 0 keeps the top-level ones',
  description:
    'Needs the `read` scope. Every topic the look-up by id would return (same visibility ' +
    'rules), in `sort` then `id` order. `parameters` may be left out; `parameters.parent` ' +
    'keeps the children of one topic (`0`: top-level topics only, what the original service ' +
    'returned; DESKGATE_TOPICS_ALL=top-level makes that the default). Without `limit`, every match (up to DESKGATE_MAX_LIST; more → 400 ' +
    '`too_many_results`); with `limit`, pages as user/all does (`next`, `after`). No topic → ' +
    '200 with `total` 0 and an empty list.',
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
  errors: ['too_many_results'],
  async handle({ parameters }, { data, config }) {
    const parent = parameters.parent ?? (config.topicsAll === 'top-level' ? 0 : undefined);
    const { elements, next } = await readList(
      listRequest(parameters, config, 'topics', TOPIC_CURSOR),
      // The store answers the whole (small) topic table; paging is done here.
      async (count, after) =>
        (await data(topics).listTopicsInOrder(parent))
          .filter((topic) => isTopicVisible(topic, config))
          .filter((topic) => after === undefined || isAfter(topic, after))
          .slice(0, count),
      (topic) => ({ sort: topic.sort, id: topic.id }),
    );
    return listAnswer('topics', elements.map(toTopicView), next);
  },
});
