import type { ServerResponse } from 'node:http';
import { DeskgateError } from '../errors.ts';
import { MESSAGES } from '../messages.ts';
import { endWithTurn } from './end-with-turn.ts';

/** Seconds since `startedAt` (a performance.now() reading), with sub-millisecond precision. */
export function elapsedSeconds(startedAt: number): number {
  return (performance.now() - startedAt) / 1000;
}

/** The status line and headers of an answer not sent yet. */
function setHead(res: ServerResponse, status: number, headers: Record<string, string>): void {
  res.statusCode = status;
  for (const name in headers) res.setHeader(name, headers[name] as string);
}

/**
 * Sends a JSON answer with the event loop's turn (end-with-turn.ts); the promise settles once
 * it is written.
 */
export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<void> {
  const payload = JSON.stringify(body);
  setHead(res, status, headers);
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.setHeader('Content-Length', Buffer.byteLength(payload));
  return endWithTurn(res, payload);
}

export function sendSuccess(res: ServerResponse, startedAt: number, data: unknown): Promise<void> {
  return sendJson(res, 200, { status: 'Success', time: elapsedSeconds(startedAt), data });
}

/** The error envelope. Anything but a DeskgateError is a 500 whose details stay in the log. */
export function sendError(
  res: ServerResponse,
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
    error.headers,
  );
}

/** HTTP forbids a body on 204, so the error code travels in a header. */
export function sendNoContent(res: ServerResponse, code: string): Promise<void> {
  setHead(res, 204, { 'X-Error-Code': code });
  return endWithTurn(res);
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
