import {
  createServer,
  type IncomingMessage,
  request,
  type Server,
  type ServerResponse,
} from 'node:http';

/**
 * A proxy on 127.0.0.1 that forwards each request to `target` as it came and lets `respond`
 * decide what the client gets of the answer (changed, or nothing at all).
 */
export function startHttpProxy(
  target: string,
  respond: (answer: IncomingMessage, res: ServerResponse) => void,
): Promise<Server> {
  const upstream = new URL(target);
  const server = createServer((req, res) => {
    const forward = request(
      {
        host: upstream.hostname,
        port: upstream.port,
        path: req.url,
        method: req.method,
        headers: req.headers,
      },
      (answer) => respond(answer, res),
    );
    req.pipe(forward);
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}
