import { DeskgateError } from '../errors.ts';
import type { LimiterBackend } from './limiter-backend.ts';
import { rateLimitHeaders } from './rate-limit-headers.ts';

export interface KeyRateLimiter {
  /**
   * Counts one request for the key. Returns the rate-limit headers to send; throws
   * too_many_requests (with Retry-After and the same headers) when the key is over its limit.
   */
  consume(keyId: number): Promise<Record<string, string>>;
}

const WINDOW_SECONDS = 60;

/** Requests per minute per API key (fixed one-minute windows); 0 turns it off. */
export function makeKeyRateLimiter(backend: LimiterBackend, perMinute: number): KeyRateLimiter {
  if (perMinute <= 0) return { consume: async () => ({}) };
  const counter = backend.counter('key-rate', WINDOW_SECONDS);
  const headersFor = rateLimitHeaders('per-key', perMinute, WINDOW_SECONDS);
  return {
    async consume(keyId) {
      const { count, msBeforeReset } = await counter.add(String(keyId));
      const headers = headersFor(perMinute - count, msBeforeReset);
      if (count <= perMinute) return headers;
      throw new DeskgateError(
        'too_many_requests',
        `This API key is limited to ${perMinute} requests per minute.`,
        { headers: { ...headers, 'Retry-After': headers['X-RateLimit-Reset'] as string } },
      );
    },
  };
}
