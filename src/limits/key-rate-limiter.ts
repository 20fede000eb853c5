import { RateLimiterRes } from 'rate-limiter-flexible';
import { DeskgateError } from '../errors.ts';
import type { LimiterBackend } from './limiter-backend.ts';

export interface KeyRateLimiter {
  /**
   * Counts one request for the key. Returns the X-RateLimit-* headers to send; throws
   * too_many_requests (with Retry-After and the same headers) when the key is over its limit.
   */
  consume(keyId: number): Promise<Record<string, string>>;
}

function headersOf(limit: number, state: RateLimiterRes): Record<string, string> {
  return {
    'X-RateLimit-Limit': String(limit),
    'X-RateLimit-Remaining': String(Math.max(0, state.remainingPoints)),
    // Seconds until the window starts over.
    'X-RateLimit-Reset': String(Math.max(1, Math.ceil(state.msBeforeNext / 1000))),
  };
}

/** Requests per minute per API key (fixed one-minute windows); 0 turns it off. */
export function makeKeyRateLimiter(backend: LimiterBackend, perMinute: number): KeyRateLimiter {
  if (perMinute <= 0) return { consume: async () => ({}) };
  const limiter = backend.counter('key-rate', perMinute, 60);
  return {
    async consume(keyId) {
      try {
        return headersOf(perMinute, await limiter.consume(String(keyId)));
      } catch (rejection) {
        if (!(rejection instanceof RateLimiterRes)) throw rejection;
        const headers = headersOf(perMinute, rejection);
        throw new DeskgateError(
          'too_many_requests',
          `This API key is limited to ${perMinute} requests per minute.`,
          {
            headers: { ...headers, 'Retry-After': headers['X-RateLimit-Reset'] as string },
          },
        );
      }
    },
  };
}
