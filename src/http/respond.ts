import type { ServerResponse } from 'node:http';
import { promisify } from 'node:util';
import { gzip } from 'node:zlib';
import { DeskgateError } from '../errors.ts';
import { MESSAGES } from '../messages.ts';
import { acceptsGzip } from './accepts-gzip.ts';
import { endWithTurn } from './end-with-turn.ts';
import { addHeaders, type HeaderList } from './header-list.ts';

/** Seconds since `startedAt` (a performance.now() reading), with sub-millisecond precision. */
export function elapsedSeconds(startedAt: number): number {
  return (performance.now() - startedAt) / 1000;
}

/**
 * The envelope's `time`: seconds to the microsecond (0.142519), not the float's noise
 * (0.14251865100000033). A whole number of microseconds over 1e6 prints as its six decimals.
 */
function envelopeTime(startedAt: number): number {
  return Math.round((performance.now() - startedAt) * 1000) / 1e6;
}

/**
 * JSON answers longer than this many bytes are sent gzipped to a client that accepts gzip; a
 * look-up of one topic or user is far below it and never compressed (docs/decisions/232).
 */
export const GZIP_MIN_BYTES = 1024;

const gzipAsync = promisify(gzip);

/**
 * Sends a JSON answer with the event loop's turn (end-with-turn.ts), with the request's `head`
 * (its X-Request-Id and rate-limit headers) and `extra` headers; the promise settles once it is
 * written. Over GZIP_MIN_BYTES it is compressed on libuv's thread pool, off the event loop, when
 * the request accepts gzip, then written with the turn in which the compression ends.
 */
export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  head: HeaderList,
  extra?: Readonly<Record<string, string>>,
): Promise<void> {
  const payload = JSON.stringify(body);
  if (extra) addHeaders(head, extra);
  const length = Buffer.byteLength(payload);
  head.push('Content-Type', 'application/json; charset=utf-8');
  if (length > GZIP_MIN_BYTES) {
    head.push('Vary', 'Accept-Encoding');
    if (acceptsGzip(res.req?.headers['accept-encoding']))
      return sendGzipped(res, status, head, payload);
  }
  head.push('Content-Length', String(length));
  return endWithTurn(res, status, head, payload);
}

async function sendGzipped(
  res: ServerResponse,
  status: number,
  head: HeaderList,
  payload: string,
): Promise<void> {
  // The log line and the metrics read it, even if the client goes while the body is compressed.
  res.statusCode = status;
  const body = await gzipAsync(payload);
  head.push('Content-Encoding', 'gzip', 'Content-Length', String(body.length));
  return endWithTurn(res, status, head, body);
}

export function sendSuccess(
  res: ServerResponse,
  head: HeaderList,
  startedAt: number,
  data: unknown,
): Promise<void> {
  return sendJson(res, 200, { status: 'Success', time: envelopeTime(startedAt), data }, head);
}

/** The error envelope. Anything but a DeskgateError is a 500 whose details stay in the log. */
export function sendError(
  res: ServerResponse,
  head: HeaderList,
  startedAt: number,
  error: DeskgateError,
): Promise<void> {
  return sendJson(
    res,
    error.status,
    {
      status: 'Error',
      time: envelopeTime(startedAt),
      data: error.message,
      code: error.code,
      ...(error.errors ? { errors: error.errors } : {}),
      ...error.extra,
    },
    head,
    error.headers,
  );
}

/** HTTP forbids a body on 204, so the error code travels in a header. */
export function sendNoContent(res: ServerResponse, head: HeaderList, code: string): Promise<void> {
  head.push('X-Error-Code', code);
  return endWithTurn(res, 204, head);
}

/** Maps any thrown value to the error the caller sees; 5xx details stay in the log. */
export function toDeskgateError(
  error: unknown,
  isConnectionError: (e: unknown) => boolean,
): DeskgateError {
  if (error instanceof DeskgateError) return error;
  if (isConnectionError(error)) {
    return new DeskgateError('database_unavailable', MESSAGES.databaseUnavailable, {
      cause: error,
      headers: { 'Retry-After': '5' },
    });
  }
  return new DeskgateError('internal_error', MESSAGES.internalError, { cause: error });
}
