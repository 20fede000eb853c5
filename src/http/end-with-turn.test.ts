import assert from 'node:assert/strict';
import { once } from 'node:events';
import {
  createServer,
  type IncomingMessage,
  request,
  type Server,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, describe, test } from 'node:test';
import { endWithTurn } from './end-with-turn.ts';

async function listen(handler: (req: IncomingMessage, res: ServerResponse) => void) {
  const server = createServer(handler);
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return { server, port: (server.address() as AddressInfo).port };
}

function get(
  port: number,
): Promise<{ text: string; contentType: string | undefined; connection: string | undefined }> {
  return new Promise((resolve, reject) => {
    const req = request({ port, host: '127.0.0.1', agent: false }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        text += chunk;
      });
      res.on('end', () =>
        resolve({
          text,
          contentType: res.headers['content-type'],
          connection: res.headers.connection,
        }),
      );
    });
    req.on('error', reject);
    req.end();
  });
}

describe('endWithTurn', () => {
  const servers: Server[] = [];
  after(() => {
    for (const server of servers) server.close();
  });

  test('writes the answer after the turn, and its headers can still be changed until then', async () => {
    const seen: { sentAtOnce: boolean; endedWhenSettled: boolean }[] = [];
    const { server, port } = await listen((_req, res) => {
      const written = endWithTurn(res, 200, ['Content-Type', 'text/plain'], 'hello');
      const sentAtOnce = res.headersSent;
      // What a shutdown does to an answer that is made but not written yet.
      res.setHeader('Connection', 'close');
      void written.then(() => seen.push({ sentAtOnce, endedWhenSettled: res.writableEnded }));
    });
    servers.push(server);
    const reply = await get(port);
    assert.deepEqual(reply, { text: 'hello', contentType: 'text/plain', connection: 'close' });
    assert.deepEqual(seen, [{ sentAtOnce: false, endedWhenSettled: true }]);
  });

  test('answers made in one turn go out together; a client gone meanwhile holds none back', async () => {
    const waiting: ServerResponse[] = [];
    let shared: boolean | undefined;
    const { server, port } = await listen((_req, res) => {
      waiting.push(res);
      if (waiting.length < 2) return;
      const [gone, staying] = waiting as [ServerResponse, ServerResponse];
      gone.socket?.destroy();
      const first = endWithTurn(gone, 200, [], 'never read');
      const second = endWithTurn(staying, 200, [], 'still answered');
      shared = first === second;
    });
    servers.push(server);
    const goneClient = get(port).catch((error: Error) => error);
    while (waiting.length < 1) await new Promise((resolve) => setImmediate(resolve));
    const reply = await get(port);
    assert.equal(reply.text, 'still answered');
    assert.equal(shared, true);
    assert.ok((await goneClient) instanceof Error);
  });
});
