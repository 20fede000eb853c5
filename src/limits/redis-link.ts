import { createClient, type RedisClientType } from 'redis';
import type { Logger } from '../logger.ts';

/** How long a connection attempt (TCP and node-redis' handshake) may take before it is given up. */
const CONNECT_TIMEOUT_MS = 1_000;
/** While Redis is down, how often it is tried again. */
const PROBE_INTERVAL_MS = 1_000;

export interface RedisLink {
  readonly client: RedisClientType;
  /** True while Redis answers; false while it is down, silent or not yet connected. */
  isUp(): boolean;
  /** Settles once the first connection attempt has (bounded by the connect and command timeouts). */
  firstAttempt: Promise<void>;
  /**
   * Runs one call against Redis, given up after the command timeout. A failure or a timeout
   * marks Redis down (logged once) until a background probe gets an answer again.
   */
  bounded<T>(call: () => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

export class RedisTimeoutError extends Error {
  constructor(ms: number) {
    super(`Redis did not answer within ${ms} ms`);
    this.name = 'RedisTimeoutError';
  }
}

/**
 * `promise`, or a RedisTimeoutError after `ms`. The error waits for the event loop's next I/O
 * turn: when the process itself was busy past `ms` (hundreds of requests at once on a small
 * machine), the timer runs before the loop reads a reply that came in time, and Redis would be
 * marked down by the process's own delay.
 */
export function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  let turn: NodeJS.Immediate | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      turn = setImmediate(() => reject(new RedisTimeoutError(ms)));
    }, ms);
  });
  return Promise.race([promise, expired]).finally(() => {
    clearTimeout(timer);
    clearImmediate(turn);
  });
}

/**
 * One node-redis client and whether Redis answers. node-redis bounds connecting but not a reply
 * (a command's own timeout stops once it is written), and a Redis that accepts connections but
 * never answers would hold every caller: so each call is bounded here, a silent connection is
 * dropped, and reconnecting is done by a probe (connect + PING, both bounded) rather than by
 * node-redis' reconnect strategy, so that exactly one place decides "up" and "down".
 */
export function makeRedisLink(
  url: string,
  options: { commandTimeoutMs: number; logger: Logger; onChange?: (up: boolean) => void },
): RedisLink {
  const { commandTimeoutMs, logger } = options;
  const client: RedisClientType = createClient({
    url,
    // Commands sent while disconnected fail at once instead of waiting in a queue.
    disableOfflineQueue: true,
    socket: { connectTimeout: CONNECT_TIMEOUT_MS, reconnectStrategy: false },
  });
  // Failures are seen through the calls and the probe; without a listener node-redis would throw.
  client.on('error', () => {});
  let state: 'connecting' | 'up' | 'down' = 'connecting';
  let probeTimer: NodeJS.Timeout | undefined;
  let closed = false;

  function dropConnection(): void {
    if (client.isOpen) client.destroy();
  }

  function markUp(): void {
    if (state === 'up') return;
    if (state === 'down') logger.info('Redis answers again; rate limits are shared again');
    state = 'up';
    options.onChange?.(true);
  }

  function markDown(error: unknown): void {
    if (state === 'down') return;
    // Logged once per outage, not per request.
    logger.warn(
      { err: error },
      'Redis is unreachable or not answering; counting rate limits in this process until it is back',
    );
    state = 'down';
    options.onChange?.(false);
    dropConnection();
    scheduleProbe();
  }

  function scheduleProbe(): void {
    if (closed || probeTimer) return;
    probeTimer = setTimeout(() => {
      probeTimer = undefined;
      void probe();
    }, PROBE_INTERVAL_MS);
    probeTimer.unref();
  }

  async function probe(): Promise<void> {
    try {
      if (!client.isOpen) await withTimeout(client.connect(), CONNECT_TIMEOUT_MS);
      await withTimeout(client.ping(), commandTimeoutMs);
      if (!closed) markUp();
    } catch (error) {
      dropConnection();
      if (closed) return;
      if (state === 'connecting') {
        markDown(error);
      } else {
        state = 'down';
        scheduleProbe();
      }
    }
  }

  const firstAttempt = probe();

  return {
    client,
    firstAttempt,
    isUp: () => state === 'up',
    async bounded(call) {
      try {
        return await withTimeout(call(), commandTimeoutMs);
      } catch (error) {
        markDown(error);
        throw error;
      }
    },
    async close() {
      closed = true;
      clearTimeout(probeTimer);
      if (state === 'up') {
        // QUIT waits for pending replies; a Redis gone silent must not hold the shutdown up.
        await withTimeout(client.close(), commandTimeoutMs).catch(() => {});
      }
      dropConnection();
    },
  };
}
