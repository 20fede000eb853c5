import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';

export interface LatestRequests {
  /** Called first for each request. */
  track(req: IncomingMessage, res: ServerResponse): void;
  of(socket: Duplex): { req: IncomingMessage; res: ServerResponse } | undefined;
  /** From now on every response closes its connection after it, those being worked on included. */
  closeConnectionsAfterResponses(): void;
}

/**
 * The latest request of each connection, kept until the next one or the connection's end (one
 * listener per connection, none per request), so that a parse error cannot cut off an answer
 * still being written, and a shutdown can close the connection after it.
 */
export function trackLatestRequests(server: Server): LatestRequests {
  const latest = new Map<Duplex, { req: IncomingMessage; res: ServerResponse }>();
  let closingConnections = false;
  server.on('connection', (socket: Duplex) => socket.once('close', () => latest.delete(socket)));
  return {
    track(req, res) {
      latest.set(req.socket, { req, res });
      if (closingConnections) res.setHeader('Connection', 'close');
    },
    of: (socket) => latest.get(socket),
    closeConnectionsAfterResponses() {
      closingConnections = true;
      for (const { res } of latest.values())
        if (!res.headersSent) res.setHeader('Connection', 'close');
    },
  };
}
