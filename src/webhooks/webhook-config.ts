import { createHash } from 'node:crypto';
import * as z from 'zod';
import { parseIpRange } from '../auth/ip-allow-list.ts';

/** One key that encrypts webhook signing secrets at rest (AES-256-GCM). */
export interface EncryptionKey {
  /** Short, non-secret name of the key stored beside each ciphertext, so rotation finds it. */
  id: string;
  key: Buffer;
}

/** How deskgate delivers webhooks (SPEC §8e); the DESKGATE_WEBHOOK_* settings. */
export interface WebhookConfig {
  /**
   * DESKGATE_WEBHOOK_ENCRYPTION_KEY: 32-byte keys (64 hex digits or base64), comma-separated; the
   * first encrypts new secrets, every one decrypts (rotation). Empty: webhooks cannot be added,
   * and a start refuses while some exist. Never logged.
   */
  encryptionKeys: readonly EncryptionKey[];
  /**
   * DESKGATE_WEBHOOK_ALLOW_PRIVATE: CIDR ranges of loopback, private, link-local or other
   * non-public addresses a webhook may post to (a LAN service); plain http is allowed to them
   * too. Empty (default): only public addresses, over https.
   */
  allowPrivate: readonly string[];
  /** DESKGATE_WEBHOOK_TIMEOUT: the most one delivery attempt may take, connect to answer, ms. Default 10000. */
  timeoutMs: number;
  /** The most bytes of a receiver's answer read (the rest is dropped): 64 KiB. */
  maxResponseBytes: number;
  /**
   * DESKGATE_WEBHOOK_RETRY_DELAYS: the waits before each retry; after the last, the delivery has
   * failed. Default 5s,5m,30m,2h,5h,10h,10h (Standard Webhooks' schedule, about 27.5 hours).
   */
  retryDelaysMs: readonly number[];
  /** DESKGATE_WEBHOOK_DISABLE_AFTER: a webhook failing without a success this long is disabled. Default 5d. */
  disableAfterMs: number;
  /** DESKGATE_WEBHOOK_LOG_RETENTION: how long the delivery log is kept. Default 7d. */
  logRetentionMs: number;
  /** DESKGATE_WEBHOOK_CONCURRENCY: deliveries one instance sends at once. Default 4; 0: this instance sends none. */
  concurrency: number;
  /** DESKGATE_WEBHOOK_POLL_INTERVAL: how often an idle instance looks for due deliveries and new events. Default 1s. */
  pollIntervalMs: number;
}

const UNIT_MS = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 } as const;

/** `250ms`, `5s`, `30m`, `2h`, `7d`: one number and one unit. */
function durationMs(text: string): number | undefined {
  const match = /^([0-9]{1,9})(ms|s|m|h|d)$/.exec(text.trim());
  if (!match) return undefined;
  return Number(match[1]) * UNIT_MS[match[2] as keyof typeof UNIT_MS];
}

const DURATION_HINT = 'a duration such as 500ms, 30s, 5m, 2h or 7d';

const duration = (min: number) =>
  z.string().transform((value, ctx) => {
    const ms = durationMs(value);
    if (ms === undefined || ms < min) {
      ctx.issues.push({
        code: 'custom',
        input: value,
        message: `must be ${DURATION_HINT}${min > 0 ? ` of at least ${min} ms` : ''}`,
      });
      return z.NEVER;
    }
    return ms;
  });

const durationList = z.string().transform((value, ctx) => {
  const entries = value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const delays = entries.map(durationMs);
  if (entries.length === 0 || entries.length > 50 || delays.some((d) => d === undefined)) {
    ctx.issues.push({
      code: 'custom',
      input: value,
      message: `must be 1 to 50 durations (${DURATION_HINT}), comma-separated, e.g. 5s,5m,30m,2h,5h,10h,10h`,
    });
    return z.NEVER;
  }
  return delays as number[];
});

/** 32 bytes as 64 hex digits or as base64; undefined for anything else. */
function parseKey(text: string): Buffer | undefined {
  if (/^[0-9a-fA-F]{64}$/.test(text)) return Buffer.from(text, 'hex');
  if (/^[A-Za-z0-9+/_-]{43}=?$/.test(text)) {
    const key = Buffer.from(text, 'base64');
    return key.length === 32 ? key : undefined;
  }
  return undefined;
}

const encryptionKeys = z.string().transform((value, ctx) => {
  const entries = value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const keys: EncryptionKey[] = [];
  for (const entry of entries) {
    const key = parseKey(entry);
    if (!key) {
      ctx.issues.push({
        code: 'custom',
        input: '…',
        message:
          'must be 32-byte keys, each 64 hex digits or base64 (openssl rand -base64 32), comma-separated; the first encrypts',
      });
      return z.NEVER;
    }
    keys.push({ id: createHash('sha256').update(key).digest('hex').slice(0, 8), key });
  }
  return keys;
});

const cidrList = z.string().transform((value, ctx) => {
  const entries = value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  for (const entry of entries) {
    try {
      parseIpRange(entry);
    } catch (error) {
      ctx.issues.push({
        code: 'custom',
        input: value,
        message: `${(error as Error).message}; list CIDR ranges such as 10.0.0.0/8,127.0.0.0/8,fd00::/8, comma-separated`,
      });
      return z.NEVER;
    }
  }
  return entries;
});

/** The DESKGATE_WEBHOOK_* variables, merged into the configuration's schema (src/config.ts). */
export const WEBHOOK_ENV = {
  DESKGATE_WEBHOOK_ENCRYPTION_KEY: encryptionKeys.default([]),
  DESKGATE_WEBHOOK_ALLOW_PRIVATE: cidrList.default([]),
  DESKGATE_WEBHOOK_TIMEOUT: duration(100).default(10_000),
  DESKGATE_WEBHOOK_RETRY_DELAYS: durationList.default([
    5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000,
  ]),
  DESKGATE_WEBHOOK_DISABLE_AFTER: duration(1_000).default(5 * 86_400_000),
  DESKGATE_WEBHOOK_LOG_RETENTION: duration(60_000).default(7 * 86_400_000),
  DESKGATE_WEBHOOK_CONCURRENCY: z
    .string()
    .regex(/^[0-9]{1,3}$/, { error: 'must be a whole number from 0 to 100' })
    .transform(Number)
    .pipe(z.number().max(100, { error: 'must be a whole number from 0 to 100' }))
    .default(4),
  DESKGATE_WEBHOOK_POLL_INTERVAL: duration(10).default(1_000),
};

/** Variables whose value is never echoed in an error, not even a malformed one. */
export const SECRET_WEBHOOK_VARIABLES = ['DESKGATE_WEBHOOK_ENCRYPTION_KEY'];

type WebhookEnv = {
  [Name in keyof typeof WEBHOOK_ENV]: z.output<(typeof WEBHOOK_ENV)[Name]>;
};

export function toWebhookConfig(e: WebhookEnv): WebhookConfig {
  return {
    encryptionKeys: e.DESKGATE_WEBHOOK_ENCRYPTION_KEY,
    allowPrivate: e.DESKGATE_WEBHOOK_ALLOW_PRIVATE,
    timeoutMs: e.DESKGATE_WEBHOOK_TIMEOUT,
    maxResponseBytes: 64 * 1024,
    retryDelaysMs: e.DESKGATE_WEBHOOK_RETRY_DELAYS,
    disableAfterMs: e.DESKGATE_WEBHOOK_DISABLE_AFTER,
    logRetentionMs: e.DESKGATE_WEBHOOK_LOG_RETENTION,
    concurrency: e.DESKGATE_WEBHOOK_CONCURRENCY,
    pollIntervalMs: e.DESKGATE_WEBHOOK_POLL_INTERVAL,
  };
}
