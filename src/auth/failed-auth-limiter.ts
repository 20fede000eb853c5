import { RateLimiterMemory } from 'rate-limiter-flexible';
import { DeskgateError } from '../errors.ts';

export interface FailedAuthLimiter {
  /** Throws too_many_requests (with Retry-After) when the address has used up its failures. */
  assertNotBlocked(address: string): Promise<void>;
  recordFailure(address: string): Promise<void>;
}

/**
 * Counts failed authentications per client address in a fixed window, so keys cannot be
 * guessed at speed. In memory: one count per process.
 */
export function makeFailedAuthLimiter(limit: number, windowSeconds: number): FailedAuthLimiter {
  const limiter = new RateLimiterMemory({
    points: limit,
    duration: windowSeconds,
    keyPrefix: 'auth-fail',
  });
  return {
    async assertNotBlocked(address) {
      const state = await limiter.get(address);
      if (state && state.consumedPoints >= limit) {
        const retryAfter = Math.max(1, Math.ceil(state.msBeforeNext / 1000));
        throw new DeskgateError(
          'too_many_requests',
          'Too many failed authentication attempts; try again later.',
          {
            headers: { 'Retry-After': String(retryAfter) },
          },
        );
      }
    },
    async recordFailure(address) {
      await limiter.penalty(address, 1);
    },
  };
}
