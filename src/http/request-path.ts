import type { IncomingMessage } from 'node:http';

/** `scheme://authority` at the start of a request target in absolute form (RFC 9112 §3.2.2). */
const ABSOLUTE_FORM = /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*/i;

/**
 * The path of a request, without its query: `/upload/svc_wbs/` whether the request line gave it
 * in origin form or in absolute form (`GET http://host/upload/svc_wbs/`, which HTTP/1.1 servers
 * must accept and proxies send).
 */
export function requestPath(req: Pick<IncomingMessage, 'url'>): string {
  const target = (req.url ?? '/').replace(ABSOLUTE_FORM, '');
  const queryAt = target.indexOf('?');
  const path = queryAt === -1 ? target : target.slice(0, queryAt);
  return path === '' ? '/' : path;
}
