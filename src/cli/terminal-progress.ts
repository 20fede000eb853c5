/** A progress line for long CLI work. */
export interface Progress {
  /** Shows `text`, at most every `intervalMs` unless `now`. */
  show(text: string, now?: boolean): void;
  /** Clears the line. */
  end(): void;
}

/**
 * One line on stderr, rewritten in place, only when stderr is a terminal: a pipe, a file or a
 * service manager's log gets nothing, and stdout (a result, or --json) is never touched.
 */
export function makeTerminalProgress(
  stream: Pick<NodeJS.WriteStream, 'isTTY' | 'write'> = process.stderr,
  intervalMs = 200,
): Progress {
  if (stream.isTTY !== true) return { show() {}, end() {} };
  let last = 0;
  let shown = false;
  return {
    show(text, now = false) {
      const time = Date.now();
      if (!now && time - last < intervalMs) return;
      last = time;
      shown = true;
      stream.write(`\r\x1b[K${text}`);
    },
    end() {
      if (shown) stream.write('\r\x1b[K');
    },
  };
}
