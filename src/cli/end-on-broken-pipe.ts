/**
 * Makes a command end quietly, with status 0, when the reader of its stdout goes away
 * (`deskgate topics list | head -1`), as Unix tools do, instead of a `write EPIPE` trace. The
 * server keeps serving: its log lines go through pino, which drops them once the pipe is broken.
 */
export function endOnBrokenPipe(keepRunning: () => boolean): void {
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') throw error;
    if (!keepRunning()) process.exit(0);
  });
}
