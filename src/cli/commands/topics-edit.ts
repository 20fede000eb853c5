import { requireCapability } from '../../data/osticket/managed-by-osticket.ts';
import { topics } from '../../data/topics/topics.ts';
import {
  type Command,
  CommandError,
  JSON_OPTION,
  parseId,
  printJson,
  UsageError,
} from '../command.ts';
import { assertTopicEditFits, parseTopicOptions, topicToJson } from '../topic-input.ts';
import { usingStore } from '../using-store.ts';

const CHANGES = ['topic', 'parent', 'private', 'public', 'sort', 'notes'] as const;

export const topicsEdit: Command = {
  name: 'topics edit',
  usage:
    'deskgate topics edit ID [--topic NAME] [--parent ID] [--private|--public] [--sort N] [--notes TEXT] [--json]',
  summary: 'Change a help topic: only the fields given, checked as topics add checks them.',
  options: {
    ...JSON_OPTION,
    topic: { type: 'string' },
    parent: { type: 'string' },
    private: { type: 'boolean' },
    public: { type: 'boolean' },
    sort: { type: 'string' },
    notes: { type: 'string' },
  },
  positionals: 1,
  async run(input) {
    const { values } = input;
    const id = parseId(input.positionals[0], 'ID');
    if (!CHANGES.some((option) => values[option] !== undefined))
      throw new UsageError(`nothing to change: give at least one of --${CHANGES.join(', --')}`);
    if (values.private && values.public)
      throw new UsageError('--private and --public exclude each other');
    // The options given, checked before the database is opened (the rest are the stored ones).
    parseTopicOptions({
      topic: values.topic ?? 'unchanged',
      parent: values.parent ?? '0',
      sort: values.sort ?? '0',
      notes: values.notes ?? '',
    });
    const updated = await usingStore(input.config, [topics], async (store) => {
      // Before reading anything: osTicket's topics are osTicket's to change.
      const update = requireCapability(store.data(topics).updateTopic, 'help topics');
      const existing = await store.data(topics).listTopics();
      const current = existing.find((t) => t.id === id);
      if (!current) return undefined;
      const topic = parseTopicOptions({
        topic: values.topic ?? current.name,
        parent: values.parent ?? current.parentId,
        sort: values.sort ?? current.sort,
        notes: values.notes ?? current.notes,
        ispublic: values.private ? 0 : values.public ? 1 : Number(current.isPublic),
      });
      assertTopicEditFits(existing, id, topic);
      return update(id, topic);
    });
    if (!updated) throw new CommandError(`no topic with id ${id}`);
    if (values.json) printJson(input, topicToJson(updated));
    else input.out(`Updated topic ${updated.id} "${updated.name}".\n`);
  },
};
