import { createReadStream, type ReadStream } from 'node:fs';
import { Transform } from 'node:stream';
import streamArray from 'stream-json/streamers/stream-array.js';
import type { NewTopic } from '../data/topics/topic.ts';
import { CommandError } from './command.ts';
import { toNewTopic, topicInput } from './topic-input.ts';

const BYTE_ORDER_MARK = Buffer.from([0xef, 0xbb, 0xbf]);

/** Drops a UTF-8 byte-order mark at the start (SPEC §9 allows one); the parser refuses it. */
function withoutByteOrderMark(): Transform {
  let first = true;
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      if (first && chunk.subarray(0, 3).equals(BYTE_ORDER_MARK)) chunk = chunk.subarray(3);
      first = false;
      done(null, chunk);
    },
  });
}

/** Topics per slice handed on: the most the import holds at once. */
const SLICE = 1_000;

/**
 * Opens a JSON array of topics for reading element by element (stream-json), validating each as
 * it comes: memory holds one slice of topics, never the file, its parse tree or the whole batch.
 * Throws a CommandError when the file cannot be opened; the slices throw one naming the file and
 * the first bad topic. `onTopic` hears the count so far.
 */
export async function openTopicsFile(
  path: string,
  onTopic: (count: number) => void = () => {},
): Promise<AsyncIterable<NewTopic[]>> {
  const file = createReadStream(path);
  const opened = new Promise<void>((resolve, reject) => {
    file.once('open', () => resolve());
    file.once('error', reject);
  });
  try {
    await opened;
  } catch (error) {
    throw new CommandError(
      `cannot read ${path}: ${(error as NodeJS.ErrnoException).code ?? 'error'}`,
    );
  }
  return readTopicSlices(path, file, onTopic);
}

async function* readTopicSlices(
  path: string,
  file: ReadStream,
  onTopic: (count: number) => void,
): AsyncGenerator<NewTopic[]> {
  const elements = file.pipe(withoutByteOrderMark()).pipe(streamArray.withParserAsStream());
  file.on('error', (error) => elements.destroy(error));
  let slice: NewTopic[] = [];
  let count = 0;
  try {
    for await (const { key, value } of elements as AsyncIterable<{ key: number; value: unknown }>) {
      const parsed = topicInput.safeParse(value);
      if (!parsed.success) {
        const issue = parsed.error.issues[0];
        const [field] = issue?.path ?? [];
        throw new CommandError(
          `${path}: topic ${key + 1}${field === undefined ? '' : `, field ${String(field)}`}: ${issue?.message ?? 'is not valid'}; nothing was imported`,
        );
      }
      slice.push(toNewTopic(parsed.data));
      onTopic(++count);
      if (slice.length === SLICE) {
        yield slice;
        slice = [];
      }
    }
  } catch (error) {
    if (error instanceof CommandError) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    if (typeof code === 'string') throw new CommandError(`cannot read ${path}: ${code}`);
    throw new CommandError(
      /array/i.test((error as Error).message)
        ? `${path}: the file: must be a JSON array of topics; nothing was imported`
        : `${path} is not valid JSON; nothing was imported`,
    );
  } finally {
    file.destroy();
  }
  if (count === 0)
    throw new CommandError(`${path}: the file: must hold at least one topic; nothing was imported`);
  if (slice.length > 0) yield slice;
}
