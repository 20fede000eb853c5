import type { ServerResponse } from 'node:http';
import { DeskgateError } from '../errors.ts';
import { MESSAGES } from '../messages.ts';
import { endWithTurn } from './end-with-turn.ts';
import { addHeaders, type HeaderList } from './header-list.ts';

/** Seconds since `startedAt` (a performance.now() reading), with sub-millisecond precision. */
export function elapsedSeconds(startedAt: number): number {
  return (performance.now() - startedAt) / 1000;
}

/**
 * Sends a JSON answer with the event loop's turn (end-with-turn.ts), with the request's `head`
 * (its X-Request-Id and rate-limit headers) and `extra` headers; the promise settles once it is
 * written.
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
  head.push(
    'Content-Type',
    'application/json; charset=utf-8',
    'Content-Length',
    String(Buffer.byteLength(payload)),
  );
  return endWithTurn(res, status, head, payload);
}

export function sendSuccess(
  res: ServerResponse,
  head: HeaderList,
  startedAt: number,
  data: unknown,
): Promise<void> {
  return sendJson(res, 200, { status: 'Success', time: elapsedSeconds(startedAt), data }, head);
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
      time: elapsedSeconds(startedAt),
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
