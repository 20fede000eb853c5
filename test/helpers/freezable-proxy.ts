import { createConnection, createServer, type Socket } from 'node:net';

/**
 * A TCP proxy the test controls that can go silent: frozen, it keeps accepting connections and
 * reading what is sent, but passes nothing on and answers nothing — a server that hangs, not
 * one that is down (for that, see tcp-proxy.ts's cut()).
 */
export interface FreezableProxy {
  port: number;
  /** From now on nothing is forwarded either way, on open and on new connections. */
  freeze(): void;
  /** Forwards again on new connections; the connections that were frozen are closed (their state is lost). */
  thaw(): void;
  close(): Promise<void>;
}

export async function startFreezableProxy(
  targetHost: string,
  targetPort: number,
): Promise<FreezableProxy> {
  let frozen = false;
  const live = new Set<Socket>();
  const stuck = new Set<Socket>();

  function hold(socket: Socket): void {
    stuck.add(socket);
    socket.removeAllListeners('data');
    socket.on('data', () => {});
    socket.on('close', () => stuck.delete(socket));
  }

  const server = createServer((client) => {
    client.on('error', () => {});
    if (frozen) {
      hold(client);
      return;
    }
    const upstream = createConnection(targetPort, targetHost);
    upstream.on('error', () => client.destroy());
    client.on('error', () => upstream.destroy());
    for (const s of [client, upstream]) {
      live.add(s);
      s.on('close', () => live.delete(s));
    }
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
    client.on('data', (chunk: Buffer) => {
      if (!frozen) upstream.write(chunk);
    });
    upstream.on('data', (chunk: Buffer) => {
      if (!frozen) client.write(chunk);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = address && typeof address === 'object' ? address.port : 0;

  return {
    port,
    freeze() {
      frozen = true;
    },
    thaw() {
      frozen = false;
      for (const s of [...live, ...stuck]) s.destroy();
    },
    async close() {
      for (const s of [...live, ...stuck]) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
