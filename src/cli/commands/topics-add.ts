import { requireCapability } from '../../data/osticket/managed-by-osticket.ts';
import { topics } from '../../data/topics/topics.ts';
import { type Command, JSON_OPTION, printJson, UsageError } from '../command.ts';
import { assertTopicsFit, parseTopicOptions, topicToJson } from '../topic-input.ts';
import { usingStore } from '../using-store.ts';

export const topicsAdd: Command = {
  name: 'topics add',
  usage:
    'deskgate topics add --topic NAME [--parent ID] [--private] [--sort N] [--notes TEXT] [--json]',
  summary: 'Add one help topic.',
  options: {
    ...JSON_OPTION,
    topic: { type: 'string' },
    parent: { type: 'string', default: '0' },
    private: { type: 'boolean', default: false },
    sort: { type: 'string', default: '0' },
    notes: { type: 'string', default: '' },
  },
  positionals: 0,
  async run(input) {
    const { values } = input;
    if (values.topic === undefined) throw new UsageError('--topic is required');
    const batch = [
      parseTopicOptions({
        topic: values.topic,
        parent: values.parent,
        sort: values.sort,
        notes: values.notes,
        ispublic: values.private ? 0 : 1,
      }),
    ];
    const [topic] = await usingStore(input.config, [topics], async (store) => {
      const data = store.data(topics);
      const insert = requireCapability(data.insertTopics, 'help topics');
      assertTopicsFit(await data.listTopics(), batch);
      return insert(batch);
    });
    if (!topic) throw new Error('insert returned no topic');
    if (values.json) printJson(input, topicToJson(topic));
    else input.out(`Added topic ${topic.id} "${topic.name}".\n`);
  },
};
