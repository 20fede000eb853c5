import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import type { EncryptionKey } from './webhook-config.ts';

const VERSION = 'v1';
const IV_BYTES = 12;
const TAG_BYTES = 16;
/** Binds a ciphertext to its use: a secret box of another feature cannot be swapped in. */
const AAD = Buffer.from('deskgate webhook signing secret');

/** No DESKGATE_WEBHOOK_ENCRYPTION_KEY, or none of its keys opens a stored secret. */
export class WebhookEncryptionError extends Error {
  override name = 'WebhookEncryptionError';
}

/**
 * A signing secret as stored: `v1.<key id>.<base64 iv|tag|ciphertext>`, AES-256-GCM under the
 * first configured key (the key id says which one, so older keys keep opening their secrets).
 */
export function sealSecret(secret: string, keys: readonly EncryptionKey[]): string {
  const [current] = keys;
  if (!current) throw new WebhookEncryptionError('DESKGATE_WEBHOOK_ENCRYPTION_KEY is not set');
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', current.key, iv);
  cipher.setAAD(AAD);
  const sealed = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
  const box = Buffer.concat([iv, cipher.getAuthTag(), sealed]).toString('base64');
  return `${VERSION}.${current.id}.${box}`;
}

/** The secret `sealSecret` stored; WebhookEncryptionError when no configured key opens it. */
export function openSecret(stored: string, keys: readonly EncryptionKey[]): string {
  const [version, keyId, box] = stored.split('.');
  const entry = keys.find((k) => k.id === keyId);
  if (version !== VERSION || box === undefined || !entry) {
    throw new WebhookEncryptionError(
      `a webhook secret is sealed with key ${keyId ?? '?'}, which DESKGATE_WEBHOOK_ENCRYPTION_KEY does not hold`,
    );
  }
  const bytes = Buffer.from(box, 'base64');
  try {
    const decipher = createDecipheriv('aes-256-gcm', entry.key, bytes.subarray(0, IV_BYTES)).setAAD(
      AAD,
    );
    decipher.setAuthTag(bytes.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
    const data = bytes.subarray(IV_BYTES + TAG_BYTES);
    return Buffer.concat([decipher.update(data), decipher.final()]).toString('utf8');
  } catch (error) {
    throw new WebhookEncryptionError(`a webhook secret does not open with key ${keyId}`, {
      cause: error,
    });
  }
}
