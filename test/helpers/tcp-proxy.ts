import { createConnection, createServer, type Server, type Socket } from 'node:net';

/** A TCP proxy the test controls, to take a database "down" without touching the shared server. */
export interface TcpProxy {
  port: number;
  /** Closes every connection and refuses new ones. */
  cut(): Promise<void>;
  /** Accepts connections again, on the same port. */
  restore(): Promise<void>;
  close(): Promise<void>;
}

export async function startTcpProxy(targetHost: string, targetPort: number): Promise<TcpProxy> {
  const sockets = new Set<Socket>();
  let server: Server | undefined;
  let port = 0;

  async function listen(): Promise<void> {
    server = createServer((client) => {
      const upstream = createConnection(targetPort, targetHost);
      for (const s of [client, upstream]) {
        sockets.add(s);
        s.on('close', () => sockets.delete(s));
        s.on('error', () => {
          client.destroy();
          upstream.destroy();
        });
      }
      client.pipe(upstream);
      upstream.pipe(client);
    });
    await new Promise<void>((resolve) => server?.listen(port, '127.0.0.1', resolve));
    const address = server.address();
    if (address && typeof address === 'object') port = address.port;
  }

  async function stop(): Promise<void> {
    for (const s of sockets) s.destroy();
    sockets.clear();
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
    server = undefined;
  }

  await listen();
  return {
    get port() {
      return port;
    },
    cut: stop,
    restore: listen,
    close: stop,
  };
}

/** The same database URL, reached through the proxy. */
export function viaProxy(
  url: string,
  proxyPort: number,
): { url: string; host: string; port: number } {
  const parsed = new URL(url);
  const host = parsed.hostname;
  const port = Number(parsed.port || (parsed.protocol.startsWith('postgres') ? 5432 : 3306));
  parsed.hostname = '127.0.0.1';
  parsed.port = String(proxyPort);
  return { url: parsed.toString(), host, port };
}
