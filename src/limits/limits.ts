import type { Config } from '../config.ts';
import { type FailedAuthLimiter, makeFailedAuthLimiter } from './failed-auth-limiter.ts';
import { type KeyRateLimiter, makeKeyRateLimiter } from './key-rate-limiter.ts';
import { makeMemoryBackend, makeRedisBackend } from './limiter-backend.ts';

/** The rate limits of one server, in memory or in Redis (DESKGATE_REDIS_URL). */
export interface Limits {
  failedAuth: FailedAuthLimiter;
  perKey: KeyRateLimiter;
  /**
   * Resolves once the counters are shared (Redis connected), or after `limitMs`: until then each
   * process counts alone, so a server that answers before it would let a client past the shared
   * limit on every instance that has just started.
   */
  ready(limitMs: number): Promise<void>;
  close(): Promise<void>;
}

export function makeLimits(config: Readonly<Config>): Limits {
  const backend = config.redisUrl
    ? makeRedisBackend(config.redisUrl, config.redisPrefix)
    : makeMemoryBackend();
  return {
    failedAuth: makeFailedAuthLimiter(
      backend,
      config.authFailureLimit,
      config.authFailureWindowSeconds,
    ),
    perKey: makeKeyRateLimiter(backend, config.rateLimitPerMinute),
    ready: (limitMs) => backend.ready(limitMs),
    close: () => backend.close(),
  };
}
