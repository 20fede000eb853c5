import { requireCapability } from '../../data/osticket/managed-by-osticket.ts';
import { type NewTopic, TopicImportError } from '../../data/topics/topic.ts';
import { topics } from '../../data/topics/topics.ts';
import { type Command, CommandError, JSON_OPTION, UsageError } from '../command.ts';
import { openJsonArraySpool } from '../json-array-spool.ts';
import { openTopicsFile } from '../read-topics-file.ts';
import { makeTerminalProgress } from '../terminal-progress.ts';
import { topicToJson } from '../topic-input.ts';
import { usingStore } from '../using-store.ts';

/** Passes `slices` on and calls `onEnd` with the count once the last has gone. */
async function* withEnd(
  slices: AsyncIterable<NewTopic[]>,
  onEnd: (count: number) => void,
): AsyncGenerator<NewTopic[]> {
  let count = 0;
  for await (const slice of slices) {
    count += slice.length;
    yield slice;
  }
  onEnd(count);
}

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
    const slices = await openTopicsFile(path, (count) =>
      progress.show(`topics import: ${count.toLocaleString('en')} topics read`),
    );
    // The file is read as it is inserted (docs/decisions/280): the whole-set checks and the
    // commit come once it has ended.
    const checking = withEnd(slices, (count) =>
      progress.show(
        `topics import: checking and inserting ${count.toLocaleString('en')} topics (all or nothing)`,
        true,
      ),
    );
    const spool = input.values.json ? await openJsonArraySpool() : undefined;
    try {
      const imported = await usingStore(input.config, [topics], async (store) => {
        try {
          const importTopics = requireCapability(store.data(topics).importTopics, 'help topics');
          return await importTopics(
            checking,
            spool && ((stored) => spool.add(stored.map(topicToJson))),
          );
        } catch (error) {
          if (!(error instanceof TopicImportError)) throw error;
          const where =
            error.count > 1
              ? `topic ${error.position} ("${error.topicName}")`
              : `"${error.topicName}"`;
          throw new CommandError(`${path}: ${where}: ${error.problem}; nothing was imported`);
        }
      }).finally(() => progress.end());
      if (spool) await spool.print(input.out);
      else input.out(`Imported ${imported} topic${imported === 1 ? '' : 's'}.\n`);
    } finally {
      await spool?.remove();
    }
  },
};
