import type { Store } from '../data/store.ts';
import type { ApiKey } from '../domain.ts';
import { DeskgateError } from '../errors.ts';
import { isWellFormedApiKey } from './api-key-secret.ts';
import { makeIpAllowList } from './ip-allow-list.ts';

/** How often `last_used` is written for one key: a read request should not always cost a write. */
const LAST_USED_INTERVAL_MS = 60_000;

export interface Authenticator {
  /** Resolves the key in the `apikey` header or throws missing_api_key / invalid_api_key / ip_not_allowed. */
  authenticate(header: string | undefined, clientIp: string): Promise<ApiKey>;
}

export function makeAuthenticator(store: Store): Authenticator {
  const allowLists = new Map<string, (address: string) => boolean>();
  const lastMarked = new Map<number, number>();

  function isAllowed(key: ApiKey, address: string): boolean {
    const cacheKey = key.allowIps.join(',');
    let allows = allowLists.get(cacheKey);
    if (!allows) {
      allows = makeIpAllowList(key.allowIps);
      allowLists.set(cacheKey, allows);
    }
    return allows(address);
  }

  return {
    async authenticate(header, clientIp) {
      const presented = header?.trim() ?? '';
      if (presented === '')
        throw new DeskgateError('missing_api_key', 'An API key is required in the apikey header.');
      // Malformed, unknown and revoked keys share one message so a caller learns nothing about which.
      const invalid = new DeskgateError('invalid_api_key', 'The API key is not valid.');
      if (!isWellFormedApiKey(presented)) throw invalid;
      const key = await store.findApiKeyBySecret(presented);
      if (!key) throw invalid;
      if (!isAllowed(key, clientIp)) {
        throw new DeskgateError(
          'ip_not_allowed',
          'This API key may not be used from your address.',
        );
      }
      const now = Date.now();
      if (now - (lastMarked.get(key.id) ?? 0) > LAST_USED_INTERVAL_MS) {
        lastMarked.set(key.id, now);
        await store.markApiKeyUsed(key.id);
      }
      return key;
    },
  };
}
