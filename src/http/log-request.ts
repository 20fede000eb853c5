import type { IncomingMessage } from 'node:http';
import type { Logger } from '../logger.ts';
import { requestPath } from './request-path.ts';

export interface RequestLine {
  requestId: string;
  req: IncomingMessage;
  clientIp: string;
  statusCode: number;
  seconds: number;
  operation: string | undefined;
  keyId: number | undefined;
  /** What a 5xx was thrown with. */
  err: unknown;
}

/** Paths nobody serves are the caller's text: keep a bounded piece of them. */
const MAX_LOGGED_PATH = 200;

/**
 * One line per request in pino-http's shape (`req`, `res`, `responseTime` in ms), so tools made
 * for pino-http read it: info for answers, warn for 4xx, error (with the stack) for 5xx. Only
 * named, non-secret fields: never headers (the key travels in one), bodies or the query string.
 */
export function logRequest(logger: Logger, line: RequestLine): void {
  const level = line.statusCode >= 500 ? 'error' : line.statusCode >= 400 ? 'warn' : 'info';
  if (!logger.isLevelEnabled(level)) return;
  const path = requestPath(line.req);
  logger[level](
    {
      req: {
        id: line.requestId,
        method: line.req.method,
        url: path.length > MAX_LOGGED_PATH ? `${path.slice(0, MAX_LOGGED_PATH)}…` : path,
        remoteAddress: line.clientIp,
      },
      res: { statusCode: line.statusCode },
      responseTime: Math.round(line.seconds * 1e6) / 1000,
      operation: line.operation,
      keyId: line.keyId,
      err: line.err,
    },
    'request',
  );
}
