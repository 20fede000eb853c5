import { apiKeys } from '../data/api-keys/api-keys.ts';
import type { Store } from '../data/store.ts';
import { timestampToMs } from '../data/time.ts';
import type { ApiKey } from '../domain.ts';
import { DeskgateError } from '../errors.ts';
import { MESSAGES } from '../messages.ts';
import { hashApiKey, isWellFormedApiKey } from './api-key-secret.ts';
import { makeIpAllowList } from './ip-allow-list.ts';

/** How often `last_used` is written for one key: a read request should not always cost a write. */
const LAST_USED_INTERVAL_MS = 60_000;
/** Verified keys remembered at once; beyond it the cache starts over (only keys that exist get in). */
const CACHE_LIMIT = 10_000;

export interface Authenticator {
  /** Resolves the key in the `apikey` header or throws missing_api_key / invalid_api_key / ip_not_allowed. */
  authenticate(header: string | undefined, clientIp: string): Promise<ApiKey>;
}

/** Malformed, unknown and revoked keys share one answer, so a caller learns nothing about which. */
function invalidKey(): DeskgateError {
  return new DeskgateError('invalid_api_key', MESSAGES.invalidApiKey);
}

export interface AuthenticatorOptions {
  /**
   * How long a verified key is trusted without asking the database again, in ms. This bounds how
   * long a revoked key keeps working on a running instance. 0 turns the cache off.
   */
  cacheTtlMs: number;
  /** Applied to each key the store returns (osTicket mode's key settings, osticket-key-policy.ts). */
  adjustKey?: ((key: ApiKey) => ApiKey) | undefined;
}

export function makeAuthenticator(
  store: Store,
  { cacheTtlMs, adjustKey }: AuthenticatorOptions,
): Authenticator {
  const allowLists = new Map<string, (address: string) => boolean>();
  const lastMarked = new Map<number, number>();
  const verified = new Map<string, { key: ApiKey; until: number }>();

  function isAllowed(key: ApiKey, address: string): boolean {
    const cacheKey = key.allowIps.join(',');
    let allows = allowLists.get(cacheKey);
    if (!allows) {
      allows = makeIpAllowList(key.allowIps);
      allowLists.set(cacheKey, allows);
    }
    return allows(address);
  }

  // Keys are cached by digest, so the secrets themselves are not kept around.

  /** The key if it was verified within the cache's lifetime: then the database is not asked. */
  function findCachedKey(secret: string, now: number): ApiKey | undefined {
    if (cacheTtlMs <= 0) return undefined;
    const hit = verified.get(hashApiKey(secret));
    return hit && hit.until > now ? hit.key : undefined;
  }

  async function readKey(secret: string): Promise<ApiKey | undefined> {
    const key = await store.data(apiKeys).findApiKeyBySecret(secret);
    return key && adjustKey ? adjustKey(key) : key;
  }

  async function findKey(secret: string, now: number): Promise<ApiKey | undefined> {
    if (cacheTtlMs <= 0) return readKey(secret);
    const digest = hashApiKey(secret);
    const key = await readKey(secret);
    if (key) {
      if (verified.size >= CACHE_LIMIT) verified.clear();
      // A key that expires sooner than the cache would forget it is forgotten when it expires.
      const expires = key.expires === null ? Number.POSITIVE_INFINITY : timestampToMs(key.expires);
      verified.set(digest, { key, until: Math.min(now + cacheTtlMs, expires) });
    } else {
      verified.delete(digest);
    }
    return key;
  }

  return {
    async authenticate(header, clientIp) {
      // Case-insensitive, as osTicket's API and the PHP service accept a lower-case key.
      const presented = header?.trim().toUpperCase() ?? '';
      if (presented === '') {
        throw new DeskgateError('missing_api_key', MESSAGES.missingApiKey);
      }
      if (!isWellFormedApiKey(presented)) throw invalidKey();
      const now = Date.now();
      const key = findCachedKey(presented, now) ?? (await findKey(presented, now));
      if (!key) throw invalidKey();
      if (!isAllowed(key, clientIp)) {
        throw new DeskgateError('ip_not_allowed', MESSAGES.ipNotAllowed);
      }
      if (now - (lastMarked.get(key.id) ?? 0) > LAST_USED_INTERVAL_MS) {
        lastMarked.set(key.id, now);
        await store.data(apiKeys).markApiKeyUsed(key.id);
      }
      return key;
    },
  };
}
