import { topics as topicData } from '../../data/topics/topics.ts';
import { type Command, JSON_OPTION, printResult } from '../command.ts';
import { formatTable } from '../format-table.ts';
import { topicToJson } from '../topic-input.ts';
import { usingStore } from '../using-store.ts';

export const topicsList: Command = {
  name: 'topics list',
  usage: 'deskgate topics list [--database URL] [--json]',
  summary: 'List help topics.',
  options: JSON_OPTION,
  positionals: 0,
  async run(input) {
    const topics = await usingStore(input.config, [topicData], (store) =>
      store.data(topicData).listTopics(),
    );
    printResult(input, topics.map(topicToJson), () =>
      formatTable(
        ['ID', 'PARENT', 'PUBLIC', 'SORT', 'TOPIC'],
        topics.map((t) => [
          String(t.id),
          String(t.parentId),
          t.isPublic ? 'yes' : 'no',
          String(t.sort),
          t.name,
        ]),
      ),
    );
  },
};
