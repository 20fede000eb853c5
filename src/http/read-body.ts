import type { IncomingMessage, ServerResponse } from 'node:http';
import { DeskgateError } from '../errors.ts';
import { MESSAGES, payloadTooLargeMessage } from '../messages.ts';

const utf8 = new TextDecoder('utf-8', { fatal: true });

function tooLarge(limit: number): DeskgateError {
  return new DeskgateError('payload_too_large', payloadTooLargeMessage(limit));
}

/**
 * How much of a body deskgate still reads, and throws away, after answering before the body
 * ended (a 413, a 401): a client still sending then reads the answer instead of a reset, as a
 * server that closed at once would give it (EPIPE in Node's own client). More than this, and the
 * connection closes after the answer.
 */
export const DISCARD_LIMIT = 16 * 1024 * 1024;

/**
 * Called before an answer that leaves the body unread: a rest of at most DISCARD_LIMIT bytes is
 * read and dropped, and the connection stays usable; a larger or endless one (counted as it
 * comes, for a chunked body) closes the connection.
 */
export function discardUnreadBody(req: IncomingMessage, res: ServerResponse): void {
  if (req.complete) return;
  if (Number(req.headers['content-length'] ?? 0) > DISCARD_LIMIT) {
    res.setHeader('Connection', 'close');
    return;
  }
  let discarded = 0;
  req.on('data', (chunk: Buffer) => {
    discarded += chunk.length;
    if (discarded > DISCARD_LIMIT) req.socket.destroy();
  });
  // The answer is already on its way: a client that hangs up now is no error of the request's.
  req.on('error', () => {});
  req.resume();
}

/**
 * Reads the whole body (Content-Length or chunked, any method, GET included) up to `limit`
 * bytes, and decodes it as strict UTF-8.
 */
export function readBody(req: IncomingMessage, limit: number): Promise<string> {
  return new Promise((resolve, reject) => {
    if (Number(req.headers['content-length'] ?? 0) > limit) {
      reject(tooLarge(limit));
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        cleanup();
        reject(tooLarge(limit));
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = () => {
      cleanup();
      // A small body comes in one chunk, decoded as it is (concatenating would copy it).
      const [first] = chunks;
      const bytes = first && chunks.length === 1 ? first : Buffer.concat(chunks, size);
      try {
        resolve(utf8.decode(bytes));
      } catch {
        reject(new DeskgateError('invalid_json', 'The request body is not valid UTF-8.'));
      }
    };
    const onError = (error: NodeJS.ErrnoException) => {
      cleanup();
      // The client went away mid-body: its doing, not a server error worth an alert.
      reject(
        error.code === 'ECONNRESET'
          ? new DeskgateError('invalid_request', 'The request body ended early.', { cause: error })
          : error,
      );
    };
    function cleanup() {
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onError);
    }
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onError);
  });
}

/** Parses the body as JSON whatever the Content-Type says; it must be an object. */
export function parseJsonObject(text: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new DeskgateError(
      'invalid_json',
      text.trim() === ''
        ? 'The request body is empty; send a JSON object with query, condition and parameters.'
        : 'The request body is not valid JSON.',
    );
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new DeskgateError('invalid_json', MESSAGES.notAnObject);
  }
  return value as Record<string, unknown>;
}
