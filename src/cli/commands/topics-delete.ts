import { requireCapability } from '../../data/osticket/managed-by-osticket.ts';
import { tickets } from '../../data/tickets/tickets.ts';
import { topics } from '../../data/topics/topics.ts';
import { type Command, CommandError, JSON_OPTION, parseId, printJson } from '../command.ts';
import { subtreeOf } from '../topic-input.ts';
import { usingStore } from '../using-store.ts';

export const topicsDelete: Command = {
  name: 'topics delete',
  usage: 'deskgate topics delete ID [--with-children] [--json]',
  summary:
    'Delete a help topic; one with subtopics is refused unless --with-children deletes them ' +
    'too; one that tickets use is kept.',
  options: { ...JSON_OPTION, 'with-children': { type: 'boolean', default: false } },
  positionals: 1,
  async run(input) {
    const id = parseId(input.positionals[0], 'ID');
    const deleted = await usingStore(input.config, [topics, tickets], async (store) => {
      // Before reading anything: osTicket's topics (and their tickets) are osTicket's to change.
      const remove = requireCapability(store.data(topics).deleteTopics, 'help topics');
      const subtree = subtreeOf(await store.data(topics).listTopics(), id);
      const [topic, ...below] = subtree;
      if (!topic) throw new CommandError(`no topic with id ${id}`);
      if (below.length > 0 && !input.values['with-children']) {
        const ids = below.map((t) => t.id);
        throw new CommandError(
          `topic ${id} ("${topic.name}") has ${ids.length} subtopic(s) (${ids.slice(0, 10).join(', ')}${ids.length > 10 ? ', …' : ''}); ` +
            'delete them first or pass --with-children',
        );
      }
      for (const { id: topicId } of subtree) {
        const count = await store.data(tickets).countTicketsNaming({ topicId });
        if (count > 0)
          throw new CommandError(
            `topic ${topicId} is the help topic of ${count} ticket(s); it is kept (edit it, or make it private, instead)`,
          );
      }
      await remove(subtree.map((t) => t.id));
      return subtree;
    });
    const ids = deleted.map((t) => t.id);
    if (input.values.json) {
      printJson(input, { deleted: ids });
      return;
    }
    const below =
      ids.length > 1 ? ` and ${ids.length - 1} subtopic(s) (${ids.slice(1).join(', ')})` : '';
    input.out(`Deleted topic ${id} "${deleted[0]?.name ?? ''}"${below}.\n`);
  },
};
