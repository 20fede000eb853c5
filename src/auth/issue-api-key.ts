import { apiKeys } from '../data/api-keys/api-keys.ts';
import type { Store } from '../data/store.ts';
import type { ApiKey, Scope } from '../domain.ts';
import { generateApiKey, hashApiKey } from './api-key-secret.ts';
import { normalizeIpRange } from './ip-allow-list.ts';

export interface IssuedApiKey {
  apiKey: ApiKey;
  /** The key in clear: shown once to whoever asked for it, never stored. */
  key: string;
}

/**
 * Creates a key. Throws a RangeError for an allow-list entry that is not an address or range;
 * IPv4-mapped IPv6 entries are stored as IPv4.
 */
export async function issueApiKey(
  store: Store,
  input: {
    name: string;
    scopes: Scope[];
    allowIps: string[];
    notes?: boolean;
    expiresAt?: string | null;
    agents?: ApiKey['agents'];
  },
): Promise<IssuedApiKey> {
  const allowIps = input.allowIps.map(normalizeIpRange);
  const key = generateApiKey();
  const apiKey = await store
    .data(apiKeys)
    .createApiKey({ ...input, allowIps, keyHash: hashApiKey(key) });
  return { apiKey, key };
}
