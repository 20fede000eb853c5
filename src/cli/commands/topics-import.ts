import { readFile } from 'node:fs/promises';
import { topics } from '../../data/topics/topics.ts';
import { type Command, CommandError, JSON_OPTION, printJson, UsageError } from '../command.ts';
import { assertTopicsFit, toNewTopic, topicListInput, topicToJson } from '../topic-input.ts';
import { usingStore } from '../using-store.ts';

async function readJsonFile(path: string): Promise<unknown> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw new CommandError(
      `cannot read ${path}: ${(error as NodeJS.ErrnoException).code ?? 'error'}`,
    );
  }
  try {
    // A byte-order mark is allowed (SPEC §9); readFile keeps it as U+FEFF, which JSON.parse refuses.
    return JSON.parse(text.startsWith('\uFEFF') ? text.slice(1) : text);
  } catch {
    throw new CommandError(`${path} is not valid JSON`);
  }
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
    const parsed = topicListInput.safeParse(await readJsonFile(path));
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const [index, field] = issue?.path ?? [];
      const where =
        typeof index === 'number'
          ? `topic ${index + 1}${field ? `, field ${String(field)}` : ''}`
          : 'the file';
      throw new CommandError(
        `${path}: ${where}: ${issue?.message ?? 'is not valid'}; nothing was imported`,
      );
    }
    const batch = parsed.data.map(toNewTopic);
    const imported = await usingStore(input.config, async (store) => {
      try {
        assertTopicsFit(await store.data(topics).listTopics(), batch);
      } catch (error) {
        if (error instanceof CommandError)
          throw new CommandError(`${path}: ${error.message}; nothing was imported`);
        throw error;
      }
      return store.data(topics).insertTopics(batch);
    });
    if (input.values.json) printJson(input, imported.map(topicToJson));
    else input.out(`Imported ${imported.length} topic${imported.length === 1 ? '' : 's'}.\n`);
  },
};
