import { RateLimiterMemory, RateLimiterRedis, type RateLimiterRes } from 'rate-limiter-flexible';
import type { Logger } from '../logger.ts';

/** A fixed-window count for one key, after the request that was just counted. */
export interface CounterState {
  /** Requests counted in this window, this one included. */
  count: number;
  /** Time until the window starts over. */
  msBeforeReset: number;
}

/** Counts per key in fixed windows. Counting and reading the count are one atomic step. */
export interface Counter {
  /** Counts one more for `key` and returns the count including it; never refuses. */
  add(key: string): Promise<CounterState>;
}

/** What /metrics shows about the limits' store. */
export interface LimiterStats {
  /** 1 while Redis answers, 0 while it does not; undefined without Redis. */
  redisUp: number | undefined;
  /** Counts made in this process's memory because Redis was down or silent. */
  fallbacks: number;
}

/** Where the counters live: this process's memory, or Redis shared by every instance. */
export interface LimiterBackend {
  counter(name: string, windowSeconds: number): Counter;
  stats(): LimiterStats;
  close(): Promise<void>;
}

function toState(res: RateLimiterRes): CounterState {
  return { count: res.consumedPoints, msBeforeReset: res.msBeforeNext };
}

/** `penalty` adds without refusing; the limit itself is applied by the callers. */
function memoryCounter(name: string, windowSeconds: number): Counter {
  const limiter = new RateLimiterMemory({
    keyPrefix: name,
    points: Number.MAX_SAFE_INTEGER,
    duration: windowSeconds,
  });
  return { add: (key) => limiter.penalty(key, 1).then(toState) };
}

export function makeMemoryBackend(): LimiterBackend {
  return {
    counter: memoryCounter,
    stats: () => ({ redisUp: undefined, fallbacks: 0 }),
    close: async () => {},
  };
}

/**
 * Counters in Redis under `prefix` (node-redis). Every Redis call is bounded by
 * `commandTimeoutMs`; while Redis is down or silent each process counts in its own memory, so
 * requests are neither refused nor held because of Redis. Resolves once Redis was tried (within
 * about a second), so an instance's first requests count where the later ones will.
 */
export async function openRedisBackend(
  url: string,
  prefix: string,
  options: { commandTimeoutMs: number; logger: Logger },
): Promise<LimiterBackend> {
  // Loaded only with DESKGATE_REDIS_URL: node-redis takes a noticeable time to import, and
  // every CLI command would pay it.
  const { makeRedisLink } = await import('./redis-link.ts');
  let redisUp = 0;
  let fallbacks = 0;
  const link = makeRedisLink(url, {
    ...options,
    onChange: (up) => {
      redisUp = up ? 1 : 0;
    },
  });
  function counter(name: string, windowSeconds: number): Counter {
    const shared = new RateLimiterRedis({
      storeClient: link.client,
      useRedisPackage: true,
      rejectIfRedisNotReady: true,
      keyPrefix: `${prefix}:${name}`,
      points: Number.MAX_SAFE_INTEGER,
      duration: windowSeconds,
    });
    const local = memoryCounter(name, windowSeconds);
    return {
      async add(key) {
        if (link.isUp()) {
          try {
            return toState(await link.bounded(() => shared.penalty(key, 1)));
          } catch {
            // Marked down by the link (and logged once); this request counts in memory.
          }
        }
        fallbacks++;
        return local.add(key);
      },
    };
  }
  await link.firstAttempt;
  return {
    counter,
    stats: () => ({ redisUp, fallbacks }),
    close: () => link.close(),
  };
}
