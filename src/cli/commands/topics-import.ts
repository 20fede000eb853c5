import { topics } from '../../data/topics/topics.ts';
import { type Command, CommandError, JSON_OPTION, printJson, UsageError } from '../command.ts';
import { readTopicsFile } from '../read-topics-file.ts';
import { makeTerminalProgress } from '../terminal-progress.ts';
import { assertTopicsFit, topicToJson } from '../topic-input.ts';
import { usingStore } from '../using-store.ts';

export const topicsImport: Command = {
  name: 'topics import',
  usage: 'deskgate topics import FILE [--database URL] [--json]',
  summary: 'Import help topics from a JSON array, all or nothing.',
  options: JSON_OPTION,
  positionals: 1,
  async run(input) {
    const path = input.positionals[0];
    if (!path) throw new UsageError('FILE is required');
    const progress = makeTerminalProgress();
    const batch = await readTopicsFile(path, (count) =>
      progress.show(`topics import: ${count.toLocaleString('en')} topics read`),
    ).finally(() => progress.end());
    progress.show(
      `topics import: checking and inserting ${batch.length.toLocaleString('en')} topics (all or nothing)`,
      true,
    );
    const imported = await usingStore(input.config, async (store) => {
      try {
        assertTopicsFit(await store.data(topics).listTopics(), batch);
      } catch (error) {
        if (error instanceof CommandError)
          throw new CommandError(`${path}: ${error.message}; nothing was imported`);
        throw error;
      }
      return store.data(topics).insertTopics(batch);
    }).finally(() => progress.end());
    if (input.values.json) printJson(input, imported.map(topicToJson));
    else input.out(`Imported ${imported.length} topic${imported.length === 1 ? '' : 's'}.\n`);
  },
};
