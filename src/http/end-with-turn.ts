import type { ServerResponse } from 'node:http';

interface Turn {
  responses: { res: ServerResponse; body: string | undefined }[];
  written: Promise<void>;
  resolve: () => void;
}

let current: Turn | undefined;

function writeTurn(turn: Turn): void {
  current = undefined;
  for (const { res, body } of turn.responses) {
    if (res.writableEnded) continue;
    try {
      res.end(body);
    } catch {
      // Its headers were checked when they were set: nothing but a dead socket is left to fail.
      res.destroy();
    }
  }
  turn.resolve();
}

/**
 * Ends `res` with `body` once the event loop has run the I/O callbacks that are ready now (its
 * check phase, right after the poll phase), together with every other answer made in the same
 * turn. Written one at a time, each answer wakes its client's process on its own, and on
 * loopback or a VM that wake-up cost more CPU than building the answer (docs/decisions/094). An
 * answer waits at most for the rest of the turn. Status and headers must already be set on
 * `res`: until then it is not sent, so headers can still be added (a shutdown's
 * `Connection: close`). The promise settles once the turn's answers are written.
 */
export function endWithTurn(res: ServerResponse, body?: string): Promise<void> {
  if (!current) {
    const { promise, resolve } = Promise.withResolvers<void>();
    current = { responses: [], written: promise, resolve };
    setImmediate(writeTurn, current);
  }
  current.responses.push({ res, body });
  return current.written;
}
