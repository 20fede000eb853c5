import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP } from 'node:net';
import { readPackageVersion } from '../package-files.ts';
import { type AddressGuard, AddressRefusedError, hostOf } from './address-guard.ts';
import type { SignatureHeaders } from './signature.ts';

/** What one POST to a receiver came to. */
export interface AttemptResult {
  /** The receiver's HTTP status; undefined when none came (refused address, network error, timeout). */
  status: number | undefined;
  /** From the start of the attempt to the answer's head, or to the failure. */
  latencyMs: number;
  /** Why no status came, or what was wrong with it, in a few words (never the secret). */
  error: string | undefined;
  /** The receiver's Retry-After, in ms from now, when it sent one (429, 503). */
  retryAfterMs: number | undefined;
  /** The start of the receiver's answer, at most RESPONSE_EXCERPT characters, for the delivery log. */
  responseExcerpt: string;
}

/** How much of an answer the delivery log keeps. */
export const RESPONSE_EXCERPT = 1_024;

export interface SendOptions {
  url: string;
  headers: SignatureHeaders;
  body: string;
  guard: AddressGuard;
  timeoutMs: number;
  maxResponseBytes: number;
}

const USER_AGENT = `deskgate-webhooks/${readPackageVersion()}`;

/** Retry-After as seconds or an HTTP date, in ms from now; undefined when absent or unreadable. */
export function parseRetryAfter(value: string | undefined, nowMs = Date.now()): number | undefined {
  if (value === undefined) return undefined;
  const text = value.trim();
  if (/^[0-9]{1,9}$/.test(text)) return Number(text) * 1_000;
  const at = Date.parse(text);
  return Number.isNaN(at) ? undefined : Math.max(0, at - nowMs);
}

/**
 * POSTs one signed delivery. Never follows a redirect; connects only to an address the guard
 * allowed; the whole exchange is bounded by `timeoutMs` and at most `maxResponseBytes` of the
 * answer are read, so a slow or endless receiver cannot hold a worker. Never throws.
 */
export function sendWebhook(options: SendOptions): Promise<AttemptResult> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const failed = (error: string): AttemptResult => ({
    status: undefined,
    latencyMs: elapsed(),
    error,
    retryAfterMs: undefined,
    responseExcerpt: '',
  });
  let url: URL;
  try {
    url = new URL(options.url);
  } catch {
    return Promise.resolve(failed('the URL is not valid'));
  }
  const refusal = options.guard.refuseUrl(options.url);
  if (refusal !== undefined) return Promise.resolve(failed(`address refused: ${refusal}`));
  const host = hostOf(url);
  const request = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise<AttemptResult>((resolve) => {
    let settled = false;
    const finish = (result: AttemptResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(result);
    };
    const req = request(url, {
      method: 'POST',
      agent: false,
      headers: {
        'content-type': 'application/json',
        'content-length': Buffer.byteLength(options.body),
        'user-agent': USER_AGENT,
        ...options.headers,
      },
      // A literal address was checked above; a name is checked on every address it resolves to.
      ...(isIP(host) ? {} : { lookup: options.guard.lookupFor(url.protocol) }),
    });
    const timer = setTimeout(() => {
      finish(failed(`no answer within ${options.timeoutMs} ms`));
      req.destroy();
    }, options.timeoutMs);
    req.on('error', (error: NodeJS.ErrnoException) => {
      if (error instanceof AddressRefusedError || error.code === 'EWEBHOOKADDRESS') {
        finish(failed(`address refused: ${error.message}`));
      } else {
        finish(failed(`${error.code ?? 'network error'}: ${error.message}`.slice(0, 255)));
      }
    });
    req.on('response', (res: IncomingMessage) => {
      const latencyMs = elapsed();
      const status = res.statusCode ?? 0;
      const chunks: Buffer[] = [];
      let bytes = 0;
      const done = () => {
        const text = Buffer.concat(chunks).toString('utf8').slice(0, RESPONSE_EXCERPT);
        const location = res.headers.location;
        finish({
          status,
          latencyMs,
          error:
            status >= 300 && status < 400
              ? `redirect not followed${typeof location === 'string' ? ` (to ${location.slice(0, 200)})` : ''}`
              : undefined,
          retryAfterMs: parseRetryAfter(res.headers['retry-after']),
          responseExcerpt: text,
        });
        res.destroy();
      };
      res.on('data', (chunk: Buffer) => {
        bytes += chunk.length;
        if (bytes <= RESPONSE_EXCERPT) chunks.push(chunk);
        // Enough read: the rest is not waited for (nor kept).
        if (bytes >= options.maxResponseBytes) done();
      });
      res.on('end', done);
      res.on('error', done);
    });
    req.end(options.body);
  });
}
