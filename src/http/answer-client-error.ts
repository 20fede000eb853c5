import type { Duplex } from 'node:stream';
import type { Logger } from '../logger.ts';
import { MESSAGES } from '../messages.ts';
import type { LatestRequests } from './latest-requests.ts';
import { pickRequestId } from './request-id.ts';

/**
 * node:http's `clientError` listener. Without it, Node answers a request it cannot parse with a
 * bare 400/431 (no envelope, no request id). A request timeout keeps Node's bare 408: the closed
 * set of codes has none for it.
 */
export function makeClientErrorListener(latest: LatestRequests, logger: Logger) {
  return (error: NodeJS.ErrnoException, socket: Duplex): void => {
    if (error.code === 'ECONNRESET' || !socket.writable) {
      socket.destroy();
      return;
    }
    // Bytes that do not parse after a whole request (pipelined junk) must not cut off that
    // request's answer, whose work may already be committed: answer it first, then the junk,
    // then close. An error in the request still being received (a timeout, a broken chunk) is
    // about that request: answered at once, as it will never be whole.
    const current = latest.of(socket);
    const pending =
      current?.req.complete && !current.res.writableFinished ? current.res : undefined;
    if (pending) {
      let answered = false;
      const afterwards = () => {
        if (answered) return;
        answered = true;
        // If that answer closes the connection itself, node:http ends it once it is written.
        if (socket.writable) answerClientError(error, socket, logger);
      };
      pending.once('finish', afterwards);
      pending.once('close', afterwards);
      return;
    }
    answerClientError(error, socket, logger);
  };
}

function answerClientError(error: NodeJS.ErrnoException, socket: Duplex, logger: Logger): void {
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT') {
    socket.end('HTTP/1.1 408 Request Timeout\r\nConnection: close\r\n\r\n', () => socket.destroy());
    return;
  }
  const requestId = pickRequestId(undefined);
  const payload = JSON.stringify({
    status: 'Error',
    time: 0,
    data:
      error.code === 'HPE_HEADER_OVERFLOW'
        ? 'The request headers are too large.'
        : MESSAGES.malformedHttp,
    code: 'invalid_request',
  });
  socket.end(
    [
      'HTTP/1.1 400 Bad Request',
      'Content-Type: application/json; charset=utf-8',
      `Content-Length: ${Buffer.byteLength(payload)}`,
      `X-Request-Id: ${requestId}`,
      'Connection: close',
      '',
      payload,
    ].join('\r\n'),
    // The server allows half-open sockets: close ours even if the client never closes its side.
    () => socket.destroy(),
  );
  logger.warn({ requestId, res: { statusCode: 400 }, reason: error.code }, 'malformed request');
}
