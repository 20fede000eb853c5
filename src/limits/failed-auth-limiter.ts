import { DeskgateError } from '../errors.ts';
import type { LimiterBackend } from './limiter-backend.ts';
import { rateLimitHeaders } from './rate-limit-headers.ts';

export interface FailedAuthLimiter {
  /**
   * Counts one failed authentication from `address` and returns what to answer: `refusal`
   * itself while the address is within its limit, too_many_requests (with Retry-After) once it
   * is over. Counting and checking are one atomic step, so concurrent guesses cannot all slip
   * under the limit.
   */
  countFailure(address: string, refusal: DeskgateError): Promise<DeskgateError>;
}

/**
 * Failed authentications per client address in a fixed window, so keys cannot be guessed at
 * speed. Only failures are counted and only they are refused: a valid key is served from a
 * blocked address (docs/decisions/050-failed-auth-block-serves-valid-keys.md).
 */
export function makeFailedAuthLimiter(
  backend: LimiterBackend,
  limit: number,
  windowSeconds: number,
): FailedAuthLimiter {
  const counter = backend.counter('auth-fail', windowSeconds);
  const headersFor = rateLimitHeaders('failed-auth', limit, windowSeconds);
  return {
    async countFailure(address, refusal) {
      const { count, msBeforeReset } = await counter.add(address);
      if (count <= limit) return refusal;
      const headers = headersFor(0, msBeforeReset);
      return new DeskgateError(
        'too_many_requests',
        'Too many failed authentication attempts; try again later.',
        {
          headers: {
            'Retry-After': headers['X-RateLimit-Reset'] as string,
            'RateLimit-Policy': headers['RateLimit-Policy'] as string,
            RateLimit: headers.RateLimit as string,
          },
        },
      );
    },
  };
}
