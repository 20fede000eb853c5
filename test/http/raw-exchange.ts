import { connect } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';

export interface RawReply {
  status: number;
  /** Header names lower-cased. */
  headers: Record<string, string>;
  text: string;
}

export interface RawExchangeOptions {
  port: number;
  host?: string;
  /** Written in order, with `pauseMs` between them; the socket is never half-closed. */
  parts: readonly (string | Buffer)[];
  pauseMs?: number;
  /** Fails the exchange when no whole response arrived by then (a hang, not a slow answer). */
  timeoutMs?: number;
}

/** The first response in `received` and the bytes it took, or undefined while it is incomplete. */
function parseResponse(received: Buffer): { reply: RawReply; size: number } | undefined {
  const headEnd = received.indexOf('\r\n\r\n');
  if (headEnd === -1) return undefined;
  const [statusLine = '', ...lines] = received
    .subarray(0, headEnd)
    .toString('latin1')
    .split('\r\n');
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  const length = Number(headers['content-length'] ?? 0);
  const body = received.subarray(headEnd + 4);
  if (body.length < length) return undefined;
  return {
    reply: {
      status: Number(statusLine.split(' ')[1]),
      headers,
      text: body.subarray(0, length).toString('utf8'),
    },
    size: headEnd + 4 + length,
  };
}

/**
 * Writes raw bytes to the server and reads one response (framed by Content-Length), for what a
 * well-behaved client cannot send: a request whose declared body never comes, a chunked body
 * left unfinished, pauses inside a body.
 */
export async function rawExchange(options: RawExchangeOptions): Promise<RawReply> {
  const [reply] = await rawExchanges(options, 1);
  return reply as RawReply;
}

/** As rawExchange, for two requests on one connection: both responses, in order. */
export async function exchangeTwo(port: number, bytes: string): Promise<[RawReply, RawReply]> {
  const [first, second] = await rawExchanges({ port, parts: [bytes] }, 2);
  return [first as RawReply, second as RawReply];
}

function rawExchanges(
  { port, host = '127.0.0.1', parts, pauseMs = 0, timeoutMs = 5_000 }: RawExchangeOptions,
  count: number,
): Promise<RawReply[]> {
  const replies: RawReply[] = [];
  return new Promise((resolve, reject) => {
    const socket = connect(port, host);
    let received = Buffer.alloc(0);
    let settled = false;
    const finish = (outcome: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      outcome();
    };
    const timer = setTimeout(
      () =>
        finish(() =>
          reject(
            new Error(
              `no whole response within ${timeoutMs} ms; got ${JSON.stringify(String(received))}`,
            ),
          ),
        ),
      timeoutMs,
    );
    socket.on('data', (chunk: Buffer) => {
      received = Buffer.concat([received, chunk]);
      for (let parsed = parseResponse(received); parsed; parsed = parseResponse(received)) {
        replies.push(parsed.reply);
        received = received.subarray(parsed.size);
      }
      if (replies.length >= count) finish(() => resolve(replies));
    });
    socket.on('error', (error) => finish(() => reject(error)));
    socket.on('close', () =>
      finish(() => reject(new Error(`closed before a whole response: ${String(received)}`))),
    );
    socket.once('connect', async () => {
      for (const [index, part] of parts.entries()) {
        if (settled) return;
        if (index > 0 && pauseMs > 0) await sleep(pauseMs);
        socket.write(part);
      }
    });
  });
}

/** The head of an HTTP/1.1 request, ending with the blank line. */
export function requestHead(
  method: string,
  path: string,
  headers: Record<string, string | number>,
): string {
  const lines = [`${method} ${path} HTTP/1.1`, 'Host: localhost'];
  for (const [name, value] of Object.entries(headers)) lines.push(`${name}: ${value}`);
  return `${lines.join('\r\n')}\r\n\r\n`;
}

/** One chunk of a chunked body. */
export function chunk(data: string | Buffer): Buffer {
  const bytes = Buffer.isBuffer(data) ? data : Buffer.from(data);
  return Buffer.concat([
    Buffer.from(`${bytes.length.toString(16)}\r\n`),
    bytes,
    Buffer.from('\r\n'),
  ]);
}

/** The last chunk, which ends a chunked body. */
export const LAST_CHUNK = '0\r\n\r\n';
