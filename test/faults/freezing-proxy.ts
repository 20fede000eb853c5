import { createConnection, createServer, type Server, type Socket } from 'node:net';

/**
 * A TCP proxy the test controls that can go silent: frozen, it keeps every connection open and
 * accepts new ones but passes no byte either way, like a server that hangs or a network path
 * that drops packets. Nothing is ever refused or reset, so only timeouts can notice.
 */
export interface FreezingProxy {
  port: number;
  freeze(): void;
  /** Passes bytes again, those held back included. */
  thaw(): void;
  close(): Promise<void>;
}

interface Pair {
  client: Socket;
  upstream: Socket;
}

export async function startFreezingProxy(host: string, port: number): Promise<FreezingProxy> {
  const pairs = new Set<Pair>();
  let frozen = false;
  const flow = ({ client, upstream }: Pair) => {
    client.pipe(upstream);
    upstream.pipe(client);
  };
  const halt = ({ client, upstream }: Pair) => {
    client.unpipe(upstream);
    upstream.unpipe(client);
    client.pause();
    upstream.pause();
  };
  const server: Server = createServer((client) => {
    const upstream = createConnection(port, host);
    const pair = { client, upstream };
    pairs.add(pair);
    // Either side gone ends the pair: a frozen pair is unpiped, so nothing else would end it.
    const end = () => {
      client.destroy();
      upstream.destroy();
      pairs.delete(pair);
    };
    for (const s of [client, upstream]) {
      s.on('error', end);
      s.on('close', end);
    }
    if (frozen) halt(pair);
    else flow(pair);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  return {
    port: typeof address === 'object' && address ? address.port : 0,
    freeze() {
      frozen = true;
      for (const pair of pairs) halt(pair);
    },
    thaw() {
      frozen = false;
      for (const pair of pairs) flow(pair);
    },
    async close() {
      for (const { client, upstream } of pairs) {
        client.destroy();
        upstream.destroy();
      }
      pairs.clear();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
