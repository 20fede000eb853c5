import { hash, randomBytes } from 'node:crypto';

const KEY_SHAPE = /^[0-9A-F]{32}$/;

/** A new key: 128 random bits from the CSPRNG as 32 uppercase hex characters, like the PHP service's. */
export function generateApiKey(): string {
  return randomBytes(16).toString('hex').toUpperCase();
}

export function isWellFormedApiKey(key: string): boolean {
  return KEY_SHAPE.test(key);
}

/**
 * SHA-256, not a slow password hash: a key has 128 random bits, so a fast hash cannot be
 * brute-forced, and lookups stay an indexed equality on the digest (no timing leak on the key).
 * The one-shot `hash` costs a fraction of a `createHash` object: it runs on every request.
 */
export function hashApiKey(key: string): string {
  return hash('sha256', key, 'hex');
}
