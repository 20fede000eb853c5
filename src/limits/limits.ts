import type { Config } from '../config.ts';
import type { Logger } from '../logger.ts';
import { type FailedAuthLimiter, makeFailedAuthLimiter } from './failed-auth-limiter.ts';
import { type KeyRateLimiter, makeKeyRateLimiter } from './key-rate-limiter.ts';
import { type LimiterStats, makeMemoryBackend, openRedisBackend } from './limiter-backend.ts';

/** The rate limits of one server, in memory or in Redis (DESKGATE_REDIS_URL). */
export interface Limits {
  failedAuth: FailedAuthLimiter;
  perKey: KeyRateLimiter;
  /** For /metrics: whether Redis answers, and how often memory stood in for it. */
  stats(): LimiterStats;
  /** Bounded: a silent Redis does not hold it up. */
  close(): Promise<void>;
}

/** With Redis, resolves once it was tried (within about a second; it never rejects). */
export async function makeLimits(config: Readonly<Config>, logger: Logger): Promise<Limits> {
  const backend = config.redisUrl
    ? await openRedisBackend(config.redisUrl, config.redisPrefix, {
        commandTimeoutMs: config.redisTimeoutMs,
        logger,
      })
    : makeMemoryBackend();
  return {
    failedAuth: makeFailedAuthLimiter(
      backend,
      config.authFailureLimit,
      config.authFailureWindowSeconds,
    ),
    perKey: makeKeyRateLimiter(backend, config.rateLimitPerMinute),
    stats: () => backend.stats(),
    close: () => backend.close(),
  };
}
