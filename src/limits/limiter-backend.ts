import { Redis } from 'ioredis';
import {
  type RateLimiterAbstract,
  RateLimiterMemory,
  RateLimiterRedis,
} from 'rate-limiter-flexible';

/** Where the counters live: this process's memory, or Redis shared by every instance. */
export interface LimiterBackend {
  counter(name: string, points: number, durationSeconds: number): RateLimiterAbstract;
  /** Resolves once counting goes to the shared store, or after `limitMs` if it cannot yet. */
  ready(limitMs: number): Promise<void>;
  close(): Promise<void>;
}

export function makeMemoryBackend(): LimiterBackend {
  return {
    counter: (name, points, duration) =>
      new RateLimiterMemory({ keyPrefix: name, points, duration }),
    ready: async () => {},
    close: async () => {},
  };
}

/**
 * Counters in Redis under `prefix`. While Redis is unreachable each process falls back to its own
 * memory counters (rate-limiter-flexible's insurance limiter), so requests are never refused
 * because Redis is down.
 */
export function makeRedisBackend(url: string, prefix: string): LimiterBackend {
  const client = new Redis(url, {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    lazyConnect: false,
  });
  // Connection trouble is reported by the failing calls; without a listener ioredis would crash the process.
  client.on('error', () => {});
  return {
    counter: (name, points, duration) =>
      new RateLimiterRedis({
        storeClient: client,
        keyPrefix: `${prefix}:${name}`,
        points,
        duration,
        insuranceLimiter: new RateLimiterMemory({ keyPrefix: name, points, duration }),
      }),
    ready: (limitMs) =>
      client.status === 'ready'
        ? Promise.resolve()
        : new Promise<void>((resolve) => {
            const done = () => {
              clearTimeout(timer);
              client.off('ready', done);
              resolve();
            };
            const timer = setTimeout(done, limitMs);
            client.once('ready', done);
          }),
    close: async () => {
      await client.quit().catch(() => client.disconnect());
    },
  };
}
