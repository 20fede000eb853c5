import { once } from 'node:events';
import { connect, type Socket } from 'node:net';

/** A client socket driven byte by byte, for what a well-behaved HTTP client never does. */
export interface RawConnection {
  socket: Socket;
  /** Everything the server has sent so far. */
  received(): string;
  /**
   * Resolves once what the server sent, from character `from` on, matches `pattern`, with that
   * part of it; rejects if the socket closes first.
   */
  waitFor(pattern: RegExp, from?: number): Promise<string>;
  /** Resolves when the server (or the client) has closed the socket. */
  closed: Promise<void>;
}

export async function openRawConnection(port: number): Promise<RawConnection> {
  const socket = connect(port, '127.0.0.1');
  await once(socket, 'connect');
  let text = '';
  const waiters = new Set<() => void>();
  socket.setEncoding('utf8');
  socket.on('data', (chunk: string) => {
    text += chunk;
    for (const wake of waiters) wake();
  });
  // A reset is a way of closing too; the tests only care that the connection is gone.
  socket.on('error', () => {});
  let isClosed = false;
  const closed = new Promise<void>((resolve) =>
    socket.once('close', () => {
      isClosed = true;
      for (const wake of waiters) wake();
      resolve();
    }),
  );
  return {
    socket,
    received: () => text,
    closed,
    waitFor(pattern, from = 0) {
      return new Promise((resolve, reject) => {
        const check = () => {
          if (pattern.test(text.slice(from))) {
            waiters.delete(check);
            resolve(text.slice(from));
          } else if (isClosed) {
            waiters.delete(check);
            reject(new Error(`connection closed before ${pattern}; received:\n${text}`));
          }
        };
        waiters.add(check);
        check();
      });
    },
  };
}
