import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';

/** One answer as a client sees it: the status, the headers a client acts on, the body parsed. */
export interface Answer {
  status: number;
  /** `X-Error-Code`, `Retry-After`. */
  errorCode?: string;
  retryAfter?: string;
  /** The parsed JSON body; undefined when there is none or it is not JSON (`text` then). */
  json?: Record<string, unknown>;
  text: string;
}

export interface Exchange {
  method: string;
  /** Sent as the `apikey` header; undefined sends none. */
  key?: string;
  body: unknown;
}

const TIMEOUT_MS = 30_000;

/**
 * Sends one request the way the PHP service's clients do: a JSON body on any method, GET
 * included (which fetch() refuses to send).
 */
export function sendExchange(url: string, exchange: Exchange): Promise<Answer> {
  const body = Buffer.from(JSON.stringify(exchange.body));
  const headers: Record<string, string | number> = {
    'content-type': 'application/json',
    'content-length': body.length,
  };
  if (exchange.key !== undefined) headers.apikey = exchange.key;
  const send = url.startsWith('https:') ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const req = send(url, { method: exchange.method, headers, timeout: TIMEOUT_MS }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('error', reject);
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let json: Record<string, unknown> | undefined;
        try {
          const parsed: unknown = JSON.parse(text);
          if (parsed && typeof parsed === 'object' && !Array.isArray(parsed))
            json = parsed as Record<string, unknown>;
        } catch {
          json = undefined;
        }
        const header = (name: string) => {
          const value = res.headers[name];
          return typeof value === 'string' ? value : undefined;
        };
        resolve({
          status: res.statusCode ?? 0,
          errorCode: header('x-error-code'),
          retryAfter: header('retry-after'),
          json,
          text,
        });
      });
    });
    req.on('timeout', () =>
      req.destroy(new Error(`no answer from ${url} in ${TIMEOUT_MS / 1000}s`)),
    );
    req.on('error', reject);
    req.end(body);
  });
}
