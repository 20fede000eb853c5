import { createHmac, timingSafeEqual } from 'node:crypto';

/** A delivery whose signature or timestamp does not check out: answer it 400 and do not act on it. */
export class WebhookVerificationError extends Error {
  override name = 'WebhookVerificationError';
}

export interface VerifyWebhookOptions {
  /** How far the delivery's timestamp may be from now, in seconds (replays). Default 300. */
  toleranceSeconds?: number;
  /** Now, in ms (tests). Default Date.now(). */
  nowMs?: number;
}

type HeaderBag = Record<string, string | string[] | undefined> | Headers;

function headerOf(headers: HeaderBag, name: string): string {
  const value = headers instanceof Headers ? headers.get(name) : headers[name];
  const text = Array.isArray(value) ? value[0] : value;
  if (typeof text !== 'string' || text === '') {
    throw new WebhookVerificationError(`the delivery has no ${name} header`);
  }
  return text;
}

/**
 * Verifies a webhook delivery as Standard Webhooks says and returns its event: `body` is the raw
 * request body exactly as received (not re-serialized JSON), `headers` the request's headers
 * (node's `req.headers` or a fetch `Headers`), `secret` the webhook's `whsec_…` secret. Throws
 * WebhookVerificationError for a missing header, a timestamp more than `toleranceSeconds` away,
 * or a signature that is not the secret's. Deduplicate by the `webhook-id` header (the event id).
 */
export function verifyWebhook(
  secret: string,
  body: string | Buffer,
  headers: HeaderBag,
  { toleranceSeconds = 300, nowMs = Date.now() }: VerifyWebhookOptions = {},
): unknown {
  const id = headerOf(headers, 'webhook-id');
  const timestamp = headerOf(headers, 'webhook-timestamp');
  const signatures = headerOf(headers, 'webhook-signature');
  const seconds = Number(timestamp);
  if (!/^[0-9]{1,12}$/.test(timestamp) || Math.abs(nowMs / 1_000 - seconds) > toleranceSeconds) {
    throw new WebhookVerificationError('the delivery timestamp is too old or too new');
  }
  const key = Buffer.from(secret.startsWith('whsec_') ? secret.slice(6) : secret, 'base64');
  const text = typeof body === 'string' ? body : body.toString('utf8');
  const expected = createHmac('sha256', key).update(`${id}.${timestamp}.${text}`).digest();
  // The header may carry several signatures (during a secret's rotation): one match is enough.
  const matches = signatures.split(' ').some((entry) => {
    const [version, signature] = entry.split(',');
    if (version !== 'v1' || signature === undefined) return false;
    const given = Buffer.from(signature, 'base64');
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
  if (!matches) throw new WebhookVerificationError('the delivery signature does not match');
  return JSON.parse(text) as unknown;
}
