import { createHmac, randomBytes } from 'node:crypto';

const PREFIX = 'whsec_';

/** A new signing secret in Standard Webhooks' form: `whsec_` and 32 random bytes in base64. */
export function newSigningSecret(): string {
  return `${PREFIX}${randomBytes(32).toString('base64')}`;
}

/** The Standard Webhooks headers of one delivery attempt. */
export interface SignatureHeaders {
  'webhook-id': string;
  'webhook-timestamp': string;
  'webhook-signature': string;
}

/**
 * Standard Webhooks' signature: `v1,` and the base64 HMAC-SHA256 of `id.timestamp.body` under
 * the secret's decoded bytes (`timestampSeconds`: Unix seconds of this attempt).
 */
export function signDelivery(
  secret: string,
  id: string,
  timestampSeconds: number,
  body: string,
): SignatureHeaders {
  const key = Buffer.from(
    secret.startsWith(PREFIX) ? secret.slice(PREFIX.length) : secret,
    'base64',
  );
  const signature = createHmac('sha256', key)
    .update(`${id}.${timestampSeconds}.${body}`)
    .digest('base64');
  return {
    'webhook-id': id,
    'webhook-timestamp': String(timestampSeconds),
    'webhook-signature': `v1,${signature}`,
  };
}
