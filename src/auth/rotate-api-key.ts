import { apiKeys } from '../data/api-keys/api-keys.ts';
import type { Store } from '../data/store.ts';
import { formatTimestamp, timestampToMs } from '../data/time.ts';
import type { ApiKey } from '../domain.ts';
import { generateApiKey, hashApiKey } from './api-key-secret.ts';
import type { IssuedApiKey } from './issue-api-key.ts';

export interface RotationOptions {
  /** How long the old key keeps working, in ms; 0 revokes it at once. */
  graceMs: number;
  /**
   * When the new key expires: a timestamp, null for never. Undefined: it lives as long as the old
   * key was given (its expiry minus its creation), or never expires when the old one did not.
   */
  expiresAt?: string | null | undefined;
  nowMs: number;
}

/** Why a key cannot be rotated; the rotation wrote nothing. */
export type RotationRefusal =
  | { refused: 'missing' }
  | { refused: 'revoked' }
  | { refused: 'replaced'; by: number };

export type Rotation = (IssuedApiKey & { refused?: undefined; old: ApiKey }) | RotationRefusal;

function refusalOf(key: ApiKey | undefined): RotationRefusal | undefined {
  if (!key) return { refused: 'missing' };
  if (key.replacedBy !== null) return { refused: 'replaced', by: key.replacedBy };
  if (key.revoked !== null) return { refused: 'revoked' };
  return undefined;
}

/**
 * Gives key `id`'s name, scopes, allow-list, notes flag and agents a new secret (a new key, shown once) and ends the
 * old key when the grace ends (never later than it would have expired anyway), in one
 * transaction. A revoked key or one already rotated is refused.
 */
export async function rotateApiKey(
  store: Store,
  id: number,
  { graceMs, expiresAt, nowMs }: RotationOptions,
): Promise<Rotation> {
  const data = store.data(apiKeys);
  const old = await data.findApiKeyById(id);
  const refusal = refusalOf(old);
  if (refusal || !old) return refusal ?? { refused: 'missing' };
  const lifetime =
    old.expires === null ? null : timestampToMs(old.expires) - timestampToMs(old.created);
  const newExpiry =
    expiresAt !== undefined
      ? expiresAt
      : lifetime === null
        ? null
        : formatTimestamp(new Date(nowMs + Math.max(lifetime, 1_000)));
  const graceEnd = Math.ceil((nowMs + graceMs) / 1_000) * 1_000;
  const oldEndsAt =
    graceMs === 0
      ? null
      : formatTimestamp(
          new Date(
            old.expires === null ? graceEnd : Math.min(graceEnd, timestampToMs(old.expires)),
          ),
        );
  const key = generateApiKey();
  const apiKey = await data.rotateApiKey(
    id,
    {
      name: old.name,
      scopes: old.scopes,
      allowIps: old.allowIps,
      notes: old.notes,
      agents: old.agents,
      keyHash: hashApiKey(key),
      expiresAt: newExpiry,
    },
    oldEndsAt,
  );
  // Revoked or rotated by someone else since it was read: say which.
  if (!apiKey) return refusalOf(await data.findApiKeyById(id)) ?? { refused: 'missing' };
  return { apiKey, key, old: (await data.findApiKeyById(id)) ?? old };
}
