import * as z from 'zod';
import { topics } from '../../data/topics/topics.ts';
import { INT32_MAX, integerField } from '../fields.ts';
import { defineOperation } from '../operation.ts';
import { isTopicVisible } from '../topic-visibility.ts';
import { TOPIC_EXAMPLE, topicViewSchema, toTopicView } from '../views/topic-view.ts';
import { topicNameContains } from './topic-name-match.ts';

export { type TopicView, toTopicView } from '../views/topic-view.ts';

const CONTROL_CHARACTERS = /\p{Cc}/u;

/** Its parameters, by the `sort` that selects them. */
export const topicsSpecificParameters = {
  id: z.strictObject({ id: integerField(1, INT32_MAX) }),
  name: z.strictObject({
    name: z
      .string()
      .min(1, { error: 'must not be empty' })
      .max(128, { error: 'must be at most 128 characters' })
      .refine((v) => !CONTROL_CHARACTERS.test(v), {
        error: 'must not contain control characters',
      })
      .meta({
        description: 'Text the topic name contains, ignoring case and accents.',
        examples: ['inquiry'],
      }),
  }),
};

export const topicsSpecificResponse = z
  .strictObject({ total: z.literal(1), topic: topicViewSchema })
  .meta({ description: 'The topic found.' });

export const topicsSpecific = defineOperation({
  query: 'topics',
  condition: 'specific',
  methods: ['GET'],
  scope: 'read',
  summary: 'Look up one help topic, by id or by part of its name',
  description:
    'Needs the `read` scope. `sort` selects the look-up, as in the original service: `"id"` ' +
    '(the default) uses `parameters.id`; `"name"` uses `parameters.name` and returns the first ' +
    'topic, in `sort` then `id` order, whose name contains the text, ignoring case and accents ' +
    '(`cafe` finds "Café Ünïcode"). Any topic is returned, public or not (`ispublic` says ' +
    'which), unless DESKGATE_PUBLIC_TOPICS_ONLY=true; in osTicket mode a disabled or archived ' +
    'topic counts as not found unless DESKGATE_INACTIVE_TOPICS=true.',
  parameters: topicsSpecificParameters,
  defaultSort: 'id',
  response: topicsSpecificResponse,
  responseExample: { total: 1, topic: TOPIC_EXAMPLE },
  examples: [
    { name: 'by-id', summary: 'By id', parameters: { id: 1 } },
    { name: 'by-name', summary: 'By name', sort: 'name', parameters: { name: 'inquiry' } },
  ],
  uses: [topics],
  nothingFound: true,
  async handle(selection, { data, config }) {
    if (selection.sort === 'id') {
      const topic = await data(topics).findTopicById(selection.parameters.id);
      if (!topic || !isTopicVisible(topic, config)) return undefined;
      return { total: 1 as const, topic: toTopicView(topic) };
    }
    // Help desks have tens or hundreds of topics: the list is small, the match is done in code.
    const { name } = selection.parameters;
    const topic = (await data(topics).listTopicsInOrder()).find(
      (candidate) => isTopicVisible(candidate, config) && topicNameContains(candidate.name, name),
    );
    return topic && { total: 1 as const, topic: toTopicView(topic) };
  },
});
