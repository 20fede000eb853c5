import type { StartedServer } from '../helpers/server.ts';

/**
 * Waits until the server has written a line `matches` accepts, and returns it. Gives up (and
 * fails the test, showing the output) after `limitMs`: a missing line must not hang the suite.
 */
export async function waitForOutput(
  server: StartedServer,
  matches: (line: string) => boolean,
  limitMs = 15_000,
): Promise<string> {
  const deadline = Date.now() + limitMs;
  for (;;) {
    const line = server.output.find(matches);
    if (line !== undefined) return line;
    if (Date.now() > deadline || server.process.exitCode !== null) {
      throw new Error(
        `expected output line not seen; the server wrote:\n${server.output.join('\n')}`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** The server's JSON log lines, parsed; other output (the first-start banner) is left out. */
export function logRecords(server: StartedServer): Record<string, unknown>[] {
  return server.output.flatMap((line) => {
    if (!line.startsWith('{')) return [];
    try {
      return [JSON.parse(line) as Record<string, unknown>];
    } catch {
      return [];
    }
  });
}

/** Waits for a server that was already signalled to exit by itself; resolves to its exit code. */
export async function waitForExit(server: StartedServer): Promise<number | null> {
  const child = server.process;
  if (child.exitCode === null && child.signalCode === null) {
    await new Promise((resolve) => child.once('exit', resolve));
  }
  // stop() sends nothing to a process that has exited; it only hands over the exit code.
  return server.stop();
}
