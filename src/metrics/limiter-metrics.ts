import { Counter, Gauge, type Registry } from 'prom-client';
import type { LimiterStats } from '../limits/limiter-backend.ts';

/**
 * `deskgate_redis_up` (only with DESKGATE_REDIS_URL) and `deskgate_rate_limit_fallback_total`,
 * read from the limits when scraped.
 */
export function registerLimiterMetrics(registry: Registry, stats: () => LimiterStats): void {
  if (stats().redisUp !== undefined) {
    new Gauge({
      name: 'deskgate_redis_up',
      help: '1 while Redis (shared rate limits) answers, 0 while it is down or silent.',
      registers: [registry],
      // With DESKGATE_WORKERS, one worker that cannot reach Redis makes the whole group 0.
      aggregator: 'min',
      collect() {
        this.set(stats().redisUp ?? 0);
      },
    });
  }
  new Counter({
    name: 'deskgate_rate_limit_fallback_total',
    help: "Rate-limit counts made in this process's memory because Redis was down or silent.",
    registers: [registry],
    collect() {
      this.reset();
      this.inc(stats().fallbacks);
    },
  });
}
