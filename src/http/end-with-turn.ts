import type { ServerResponse } from 'node:http';
import type { HeaderList } from './header-list.ts';

interface Answer {
  res: ServerResponse;
  status: number;
  headers: HeaderList;
  body: string | Buffer | undefined;
}

interface Turn {
  answers: Answer[];
  written: Promise<void>;
  resolve: () => void;
}

let current: Turn | undefined;

function writeTurn(turn: Turn): void {
  current = undefined;
  for (const { res, status, headers, body } of turn.answers) {
    if (res.writableEnded) continue;
    try {
      res.writeHead(status, headers);
      res.end(body);
    } catch {
      // deskgate makes every header it sends: nothing but a dead socket is left to fail.
      res.destroy();
    }
  }
  turn.resolve();
}

/**
 * Answers `res` with `status`, `headers` and `body` once the event loop has run the I/O
 * callbacks that are ready now (its check phase, right after the poll phase), together with
 * every other answer made in the same turn. Written one at a time, each answer wakes its client's
 * process on its own, and on loopback or a VM that wake-up cost more CPU than building the answer
 * (docs/decisions/094). An answer waits at most for the rest of the turn. Until then nothing is
 * sent, so a header set on `res` meanwhile (a shutdown's `Connection: close`) goes out with the
 * answer. The promise settles once the turn's answers are written.
 */
export function endWithTurn(
  res: ServerResponse,
  status: number,
  headers: HeaderList,
  body?: string | Buffer,
): Promise<void> {
  // The log line and the metrics read it, even from an answer whose client has gone.
  res.statusCode = status;
  if (!current) {
    const { promise, resolve } = Promise.withResolvers<void>();
    current = { answers: [], written: promise, resolve };
    setImmediate(writeTurn, current);
  }
  current.answers.push({ res, status, headers, body });
  return current.written;
}
