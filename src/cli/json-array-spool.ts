import { createReadStream } from 'node:fs';
import { mkdtemp, open, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A JSON array written item by item to a temporary file, printed only once it is complete. */
export interface JsonArraySpool {
  add(items: readonly unknown[]): Promise<void>;
  /** Prints the array as printJson would, waiting whenever `out` asks to. */
  print(out: (text: string) => void | Promise<void>): Promise<void>;
  remove(): Promise<void>;
}

/**
 * A large `--json` answer that must not reach stdout before the work commits (a failure prints
 * nothing there), nor sit in memory: it waits in a private temporary file.
 */
export async function openJsonArraySpool(): Promise<JsonArraySpool> {
  const dir = await mkdtemp(join(tmpdir(), 'deskgate-'));
  const path = join(dir, 'answer.json');
  const file = await open(path, 'wx', 0o600);
  let count = 0;
  return {
    async add(items) {
      if (items.length === 0) return;
      const text = items
        .map((item) => `  ${JSON.stringify(item, null, 2).replaceAll('\n', '\n  ')}`)
        .join(',\n');
      await file.write(`${count === 0 ? '' : ',\n'}${text}`);
      count += items.length;
    },
    async print(out) {
      await file.close();
      if (count === 0) {
        await out('[]\n');
        return;
      }
      await out('[\n');
      for await (const chunk of createReadStream(path, { encoding: 'utf8' }))
        await out(chunk as string);
      await out('\n]\n');
    },
    async remove() {
      await file.close().catch(() => {});
      await rm(dir, { recursive: true, force: true });
    },
  };
}
