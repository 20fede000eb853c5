import type { IncomingMessage } from 'node:http';
import type { HeaderList } from './header-list.ts';

/** What a page on a listed origin may send beside the simple headers. */
export const CORS_ALLOW_HEADERS =
  'apikey, content-type, idempotency-key, x-request-id, x-http-method-override';
/** Answer headers the page's script may read. */
export const CORS_EXPOSE_HEADERS =
  'X-Request-Id, X-Error-Code, Retry-After, X-Ticket-Number, X-Account-Status, X-Confirmation-Mail, RateLimit, RateLimit-Policy, X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset';
export const CORS_ALLOW_METHODS = 'GET, POST, PUT';
/** Seconds a browser may keep a preflight's answer. */
export const CORS_MAX_AGE = '600';

export interface Cors {
  /** Adds the CORS headers of an answer to `head`: none when CORS is off or the origin is not listed. */
  addAnswerHeaders(req: IncomingMessage, head: HeaderList): void;
  /** Whether `req` is a browser's preflight (OPTIONS with Origin and Access-Control-Request-Method) that CORS answers. */
  isPreflight(req: IncomingMessage): boolean;
  /** Adds a preflight's own headers to `head` after addAnswerHeaders (none for an origin not listed). */
  addPreflightHeaders(req: IncomingMessage, head: HeaderList): void;
}

/**
 * CORS for browser portals (docs/decisions/231): off unless `origins` lists exact origins. An
 * answer to a listed origin names it (never `*`: the apikey header is a credential); any other
 * origin gets no CORS header, so the browser keeps the answer from its page.
 */
export function makeCors(origins: readonly string[]): Cors {
  const allowed = new Set(origins);
  const listedOrigin = (req: IncomingMessage): string | undefined => {
    const origin = req.headers.origin;
    return origin !== undefined && allowed.has(origin) ? origin : undefined;
  };
  return {
    addAnswerHeaders(req, head) {
      if (allowed.size === 0) return;
      const origin = listedOrigin(req);
      // The answer differs by Origin whenever CORS is on: a cache must not hand one origin's to another.
      head.push('Vary', 'Origin');
      if (origin)
        head.push(
          'Access-Control-Allow-Origin',
          origin,
          'Access-Control-Expose-Headers',
          CORS_EXPOSE_HEADERS,
        );
    },
    isPreflight(req) {
      return (
        allowed.size > 0 &&
        req.method === 'OPTIONS' &&
        req.headers.origin !== undefined &&
        req.headers['access-control-request-method'] !== undefined
      );
    },
    addPreflightHeaders(req, head) {
      if (listedOrigin(req))
        head.push(
          'Access-Control-Allow-Methods',
          CORS_ALLOW_METHODS,
          'Access-Control-Allow-Headers',
          CORS_ALLOW_HEADERS,
          'Access-Control-Max-Age',
          CORS_MAX_AGE,
        );
    },
  };
}
