import { DeskgateError } from '../errors.ts';
import type { LimiterBackend } from './limiter-backend.ts';

export interface FailedAuthLimiter {
  /** Throws too_many_requests (with Retry-After) when the address has used up its failures. */
  assertNotBlocked(address: string): Promise<void>;
  recordFailure(address: string): Promise<void>;
}

/**
 * Counts failed authentications per client address in a fixed window, so keys cannot be guessed
 * at speed.
 */
export function makeFailedAuthLimiter(
  backend: LimiterBackend,
  limit: number,
  windowSeconds: number,
): FailedAuthLimiter {
  const limiter = backend.counter('auth-fail', limit, windowSeconds);
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
