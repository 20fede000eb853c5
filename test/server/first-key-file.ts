import { readFile } from 'node:fs/promises';
import type { StartedServer } from '../helpers/server.ts';

/**
 * The lines of the first-key file the server writes (its stdout is not a terminal), once it is
 * complete: it ends with a newline. Gives up after `limitMs`, showing the server's output.
 */
export async function readFirstKeyFile(server: StartedServer, limitMs = 15_000): Promise<string[]> {
  const deadline = Date.now() + limitMs;
  for (;;) {
    const text = await readFile(server.firstKeyFile, 'utf8').catch(() => '');
    if (text.endsWith('\n')) return text.split('\n');
    if (Date.now() > deadline || server.process.exitCode !== null) {
      throw new Error(
        `no first-key file at ${server.firstKeyFile}; the server wrote:\n${server.output.join('\n')}`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
