import proxyaddr from 'proxy-addr';
import { z } from 'zod';
import type { PoolOptions } from './data/dialects/dialect.ts';
import {
  SECRET_WEBHOOK_VARIABLES,
  toWebhookConfig,
  WEBHOOK_ENV,
  type WebhookConfig,
} from './webhooks/webhook-config.ts';

const boolean = z.enum(['true', 'false', '1', '0']).transform((v) => v === 'true' || v === '1');
/** Plain decimal digits only: `z.coerce.number()` would also read " " as 0 and "0x50" as 80. */
const integer = (min: number, max = Number.MAX_SAFE_INTEGER) => {
  const error =
    max === Number.MAX_SAFE_INTEGER
      ? `must be a whole number of at least ${min}`
      : `must be a whole number from ${min} to ${max}`;
  return z
    .string()
    .trim()
    .regex(/^[0-9]+$/, { error })
    .transform(Number)
    .pipe(z.number().min(min, { error }).max(max, { error }));
};
const positiveInt = integer(1);

/** A comma list in proxy-addr's syntax, compiled once here so a typo stops the start. */
const proxyList = z.string().transform((value, ctx) => {
  const entries = value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  try {
    proxyaddr.compile(entries);
  } catch (error) {
    ctx.issues.push({
      code: 'custom',
      input: value,
      message: `${(error as Error).message}; use addresses, CIDR ranges, loopback, linklocal or uniquelocal, comma-separated`,
    });
    return z.NEVER;
  }
  return entries;
});

/** DESKGATE_CORS_ORIGINS: exact origins (scheme://host[:port]), comma-separated; never `*`. */
const originList = z.string().transform((value, ctx) => {
  const entries = value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  for (const entry of entries) {
    let origin: string | undefined;
    try {
      const url = new URL(entry);
      if (url.protocol === 'http:' || url.protocol === 'https:') origin = url.origin;
    } catch {}
    if (origin !== entry) {
      ctx.issues.push({
        code: 'custom',
        input: value,
        message: `${JSON.stringify(entry)} is not an origin; list exact origins like https://portal.example or http://localhost:3000 (no path, no trailing slash, no *), comma-separated`,
      });
      return z.NEVER;
    }
  }
  return entries;
});

/** Addresses deskgate itself serves beside the interface: an interface path must not take one. */
const RESERVED_PATHS = ['/healthz', '/readyz', '/metrics', '/openapi.json', '/docs'];

/**
 * DESKGATE_PATHS: a comma list of paths such as `/upload/svc_wbs/,/ost_wbs/`, each written with
 * its trailing slash (either is accepted in the variable; both forms are served).
 */
const servicePaths = z.string().transform((value, ctx) => {
  const fail = (message: string) => {
    ctx.issues.push({ code: 'custom', input: value, message });
    return z.NEVER;
  };
  const entries = value.split(',').map((s) => s.trim());
  const paths: string[] = [];
  for (const entry of entries) {
    if (!/^(\/[A-Za-z0-9._~-]+)+\/?$/.test(entry)) {
      return fail(
        `${JSON.stringify(entry)} is not a path; list paths like /upload/svc_wbs/,/ost_wbs/ (letters, digits, . _ ~ - between slashes), comma-separated`,
      );
    }
    const path = entry.endsWith('/') ? entry : `${entry}/`;
    const bare = path.slice(0, -1);
    if (RESERVED_PATHS.some((reserved) => bare === reserved || bare.startsWith(`${reserved}/`))) {
      return fail(`${entry} is one of deskgate's own addresses (${RESERVED_PATHS.join(', ')})`);
    }
    if (paths.includes(path)) return fail(`${entry} is listed twice`);
    paths.push(path);
  }
  return paths;
});

const envSchema = z.object({
  HOST: z.string().min(1).default('127.0.0.1'),
  PORT: integer(0, 65535).default(8080),
  DESKGATE_DATABASE_URL: z
    .string()
    .regex(/^(sqlite:|postgres(ql)?:\/\/|mysql:\/\/|mariadb:\/\/)/, {
      error: 'must start with sqlite:, postgres://, mysql:// or mariadb://',
    })
    .default('sqlite:./data/deskgate.db'),
  DESKGATE_BASE_PATH: z
    .string()
    .regex(/^(\/[A-Za-z0-9._~-]+)*$/, { error: 'must look like /helpdesk (no trailing slash)' })
    .default(''),
  DESKGATE_PATHS: servicePaths.default(['/upload/svc_wbs/']),
  DESKGATE_BODY_LIMIT: positiveInt.default(16 * 1024),
  DESKGATE_MAX_LIST: integer(1, 1_000_000).default(10_000),
  DESKGATE_MAX_ANSWER_BYTES: integer(65_536, 1_073_741_824).default(4 * 1024 * 1024),
  DESKGATE_EVENTS_SETTLE_MS: integer(0, 600_000).default(5_000),
  DESKGATE_EVENTS_RETENTION_DAYS: integer(1, 3_650).default(30),
  DESKGATE_TRUST_PROXY: proxyList.default([]),
  DESKGATE_CORS_ORIGINS: originList.default([]),
  DESKGATE_PUBLIC_TOPICS_ONLY: boolean.default(false),
  DESKGATE_INACTIVE_TOPICS: boolean.default(false),
  DESKGATE_NOT_FOUND_STATUS: z.enum(['204', '404']).transform(Number).default(204),
  DESKGATE_MIGRATE: boolean.default(true),
  DESKGATE_SCHEMA: z.enum(['deskgate', 'osticket']).default('deskgate'),
  DESKGATE_OSTICKET_SYSLOG: boolean.default(false),
  DESKGATE_OSTICKET_ADMIN_WRITES: boolean.default(false),
  DESKGATE_OSTICKET_KEY_ADDRESS: z.enum(['enforce', 'ignore']).default('enforce'),
  // Retired (decision 311): user reads are granted per key. The old default still parses.
  DESKGATE_OSTICKET_USERS_READ: z
    .enum(['ticket-keys'], {
      error:
        'all-keys is retired (decision 311): grant user reads per key with deskgate osticket keys grant ID --scope users:read',
    })
    .default('ticket-keys'),
  DESKGATE_OSTICKET_URL: z
    .url({
      protocol: /^https?$/,
      error: 'must be an http:// or https:// URL, e.g. https://help.example.com/',
    })
    .transform((url) => (url.endsWith('/') ? url : `${url}/`))
    .optional(),
  DESKGATE_OSTICKET_API_KEY: z
    .string()
    .regex(/^[A-Fa-f0-9]{32}$/, {
      error: 'must be an osTicket API key (32 hexadecimal digits, Admin panel → Manage → API)',
    })
    .optional(),
  DESKGATE_OSTICKET_TIMEOUT: integer(1_000, 120_000).default(15_000),
  DESKGATE_OSTICKET_BRIDGE: boolean.default(false),
  DESKGATE_OSTICKET_BRIDGE_STAFF_ID: integer(1, 2_147_483_647).optional(),
  DESKGATE_TOPICS_ALL: z.enum(['all', 'top-level']).default('all'),
  DESKGATE_END_DATE: z.enum(['whole-day', 'midnight']).default('whole-day'),
  DESKGATE_CATALOGUE_VISIBILITY: z.enum(['public', 'all']).default('public'),
  DESKGATE_TABLE_PREFIX: z
    .string()
    .regex(/^[A-Za-z0-9_]{0,32}$/, { error: 'must be letters, digits and _ (e.g. ost_)' })
    .default('ost_'),
  DESKGATE_DB_POOL_MAX: integer(1, 1000).default(10),
  DESKGATE_DB_CONNECT_TIMEOUT: positiveInt.default(5_000),
  DESKGATE_DB_QUERY_TIMEOUT: positiveInt.default(10_000),
  DESKGATE_KEY_CACHE_TTL: integer(0, 3_600_000).default(2_000),
  DESKGATE_RATE_LIMIT: integer(0, 10_000_000).default(1_200),
  DESKGATE_REDIS_URL: z
    .string()
    .regex(/^rediss?:\/\//, { error: 'must start with redis:// or rediss://' })
    .optional(),
  DESKGATE_REDIS_PREFIX: z
    .string()
    .regex(/^[A-Za-z0-9:_-]{1,64}$/, { error: 'must be 1 to 64 letters, digits, :, _ or -' })
    .default('deskgate'),
  DESKGATE_REDIS_TIMEOUT: integer(10, 10_000).default(250),
  DESKGATE_METRICS: boolean.default(true),
  DESKGATE_LOG_LEVEL: z
    .enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'])
    .default('info'),
  DESKGATE_LOG_FORMAT: z.enum(['auto', 'json', 'pretty', 'ecs']).default('auto'),
  DESKGATE_WORKERS: integer(1, 64).default(1),
  DESKGATE_AUTH_FAILURE_LIMIT: positiveInt.default(10),
  DESKGATE_AUTH_FAILURE_WINDOW: positiveInt.default(60),
  DESKGATE_HEADERS_TIMEOUT: positiveInt.default(10_000),
  DESKGATE_REQUEST_TIMEOUT: positiveInt.default(30_000),
  DESKGATE_KEEP_ALIVE_TIMEOUT: positiveInt.default(5_000),
  DESKGATE_SHUTDOWN_TIMEOUT: positiveInt.default(10_000),
  DESKGATE_MAX_CONNECTIONS: integer(0, 1_000_000).default(10_000),
  DESKGATE_MAX_IN_FLIGHT: integer(0, 1_000_000).default(1_000),
  DESKGATE_BCRYPT_COST: integer(4, 15).default(10),
  DESKGATE_FIRST_KEY_FILE: z.string().optional(),
  ...WEBHOOK_ENV,
});

/** The whole configuration, parsed once from the environment. Nothing else reads `process.env`. */
export interface Config {
  /** Interface to listen on. `HOST`, default 127.0.0.1. */
  host: string;
  /** TCP port. `PORT`, default 8080; 0 picks a free one. */
  port: number;
  /** `sqlite:<path>`, `postgres://…` or `mysql://…`. Default `sqlite:./data/deskgate.db`. */
  databaseUrl: string;
  /** Path prefix for deployments behind a reverse proxy, e.g. `/helpdesk`. */
  basePath: string;
  /**
   * The paths the interface answers at, below `basePath`, each with its trailing slash (the
   * form without it is served too). `DESKGATE_PATHS`, default `/upload/svc_wbs/`; the original's
   * own documentation put it at `/ost_wbs/`. The first is the one documents and logs name.
   */
  servicePaths: readonly [string, ...string[]];
  /** Largest request body in bytes; beyond it → 413. Default 16 KiB. */
  bodyLimit: number;
  /**
   * The most elements a list operation answers at once when the caller sends no
   * `parameters.limit`; more matches → 400 `too_many_results` (never a list cut short). Default
   * 10000.
   */
  maxList: number;
  /**
   * The most bytes (as JSON) a list answer's elements hold: more without `parameters.limit` →
   * 400 `too_many_results`; a page ends early at it, with `next` (decision 323). Default 4 MiB.
   */
  maxAnswerBytes: number;
  /**
   * events/since: how long a gap in the feed's sequence (a transaction that may not have
   * committed yet) holds back the events after it (decision 381). Default 5000 ms; below 3000 the
   * feed may skip an event on PostgreSQL or MySQL.
   */
  eventsSettleMs: number;
  /** How long the feed keeps events; a cursor older than this → 410 `cursor_expired`. Default 30. */
  eventsRetentionDays: number;
  /** Proxies whose X-Forwarded-For is believed (comma list for proxy-addr). Empty: none. */
  trustProxy: string[];
  /** Browser origins allowed to call the service address (CORS). Empty: CORS off. */
  corsOrigins: string[];
  /** Answer non-public topics as if they did not exist, as the PHP service did. */
  publicTopicsOnly: boolean;
  /** osTicket mode: also answer topics osTicket no longer offers (disabled or archived). */
  inactiveTopics: boolean;
  /** 204 (the interface's rule, no body) or 404 (full error envelope) for a missing topic. */
  notFoundStatus: 204 | 404;
  /** Run pending migrations at start. */
  migrate: boolean;
  /** `deskgate` (its own schema) or `osticket` (serve an existing osTicket database; MySQL only). */
  schema: 'deskgate' | 'osticket';
  /** osTicket's table prefix in osticket mode. Default `ost_`. */
  tablePrefix: string;
  /** osTicket mode: also record each successful call in osTicket's `syslog` (System Logs). */
  osticketSyslog: boolean;
  /**
   * osTicket mode: deskgate's own `admin` keys (`keys create --scope admin`, kept in
   * `deskgate_api_keys`) and the writes they allow; their grants are checked only when on.
   */
  osticketAdminWrites: boolean;
  /**
   * osTicket mode: `enforce` (default) refuses a key used from another address than its
   * `ost_api_key.ipaddr` (403 `ip_not_allowed`), as osTicket's own API does; `ignore` accepts it
   * from anywhere, as the PHP service shipped (APIKEY_RESTRICT=false). `DESKGATE_OSTICKET_KEY_ADDRESS`.
   */
  osticketKeyAddress: 'enforce' | 'ignore';
  /**
   * `DESKGATE_OSTICKET_USERS_READ`: retired (decision 311); only its old default `ticket-keys`
   * parses, and it changes nothing (user reads are granted per key, SPEC §4a).
   */
  osticketUsersRead: 'ticket-keys';
  /**
   * osTicket mode: how deskgate reaches osTicket's own code for ticket writes; undefined while
   * `DESKGATE_OSTICKET_URL` and `DESKGATE_OSTICKET_API_KEY` are unset (ticket writes answer 501).
   */
  osticketApi: OsticketApiConfig | undefined;
  /**
   * What topics/all answers without `parameters.parent`: `all` (default) every topic, children
   * included; `top-level` only top-level topics, as the PHP service did. `DESKGATE_TOPICS_ALL`.
   */
  topicsAll: 'all' | 'top-level';
  /**
   * What a bare `end_date` (YYYY-MM-DD) of user/all means: `whole-day` (default) up to its last
   * second; `midnight` its first second only, as the PHP service compared (`created <= 'D'`).
   * `DESKGATE_END_DATE`.
   */
  endDate: 'whole-day' | 'midnight';
  /**
   * What the department, FAQ and SLA reads answer: `public` (default) what osTicket shows its
   * clients; `all` every row, internal notes included, for an admin's internal client.
   * `DESKGATE_CATALOGUE_VISIBILITY`.
   */
  catalogueVisibility: 'public' | 'all';
  /** Connection pool for PostgreSQL and MySQL. */
  pool: PoolOptions;
  /**
   * How long a verified API key is trusted before the database is asked again, in ms; also how
   * long a revoked key can keep working on a running instance. Default 2000; 0: every request asks.
   */
  keyCacheTtlMs: number;
  /** Requests per minute one API key may make; 0 turns the limit off. Default 1200. */
  rateLimitPerMinute: number;
  /**
   * Redis for the rate limits (per key, and failed authentications per address), shared by every
   * instance that names it. Unset: limits are kept in each process's memory.
   */
  redisUrl: string | undefined;
  /** Prefix of deskgate's Redis keys, so several deployments can share one Redis. */
  redisPrefix: string;
  /** How long one Redis call may take before the limits count in memory instead, in ms. */
  redisTimeoutMs: number;
  /** Serve Prometheus metrics at /metrics. */
  metrics: boolean;
  logLevel: string;
  /** `auto` (pretty in a terminal, else JSON), `json`, `pretty` (one line per entry) or `ecs`. */
  logFormat: 'auto' | 'json' | 'pretty' | 'ecs';
  workers: number;
  /** Failed authentications from one address allowed per window before 429. */
  authFailureLimit: number;
  /** Length of that window, in seconds. */
  authFailureWindowSeconds: number;
  headersTimeoutMs: number;
  requestTimeoutMs: number;
  keepAliveTimeoutMs: number;
  shutdownTimeoutMs: number;
  /**
   * Open connections one process accepts at once (node:http's `maxConnections`); beyond it new
   * connections are closed at once, so idle or slow clients cannot exhaust memory or descriptors.
   * Default 10000; 0: no limit.
   */
  maxConnections: number;
  /**
   * Requests to the service address one process works on at once; beyond it a request is answered
   * at once with 503 `overloaded` and Retry-After, instead of queueing without bound. Default
   * 1000; 0: no limit.
   */
  maxInFlight: number;
  bcryptCost: number;
  /**
   * Where the first API key is written when stdout is not a terminal (under a service manager or
   * in a container). Unset: beside a SQLite database, else ./data/first-api-key.txt.
   */
  firstKeyFile: string | undefined;
  /** Webhook delivery: the DESKGATE_WEBHOOK_* settings (src/webhooks/webhook-config.ts). */
  webhooks: WebhookConfig;
}

/** deskgate as a client of osTicket's API (decision 240). */
export interface OsticketApiConfig {
  /** osTicket's base URL with its trailing slash, e.g. `https://help.example.com/`. */
  url: string;
  /** deskgate's own osTicket API key, bound to deskgate's address. Never logged. */
  key: string;
  /** How long one call to osTicket may take, in ms (`DESKGATE_OSTICKET_TIMEOUT`, default 15000). */
  timeoutMs: number;
  /** Whether deskgate's osTicket plugin (osticket-plugin/deskgate-bridge) is installed and enabled. */
  bridge: boolean;
  /** The agent the plugin acts as for ticket/add (it has no `staff_id`); undefined: none. */
  bridgeStaffId: number | undefined;
}

export class ConfigError extends Error {
  override name = 'ConfigError';
}

/** Parses the environment; throws a ConfigError whose message names the first bad variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Readonly<Config> {
  const present = Object.fromEntries(
    Object.entries(env).filter(([, v]) => v !== undefined && v !== ''),
  );
  const result = envSchema.safeParse(present);
  if (!result.success) {
    const issue = result.error.issues[0];
    const name = String(issue?.path[0] ?? 'environment');
    // A secret is never echoed, not even a malformed one.
    const secret = name === 'DESKGATE_OSTICKET_API_KEY' || SECRET_WEBHOOK_VARIABLES.includes(name);
    const value = secret ? '…' : JSON.stringify(present[name]);
    throw new ConfigError(`${name}=${value} is not valid: ${issue?.message ?? 'invalid value'}`);
  }
  const e = result.data;
  if (e.DESKGATE_SCHEMA === 'osticket' && !/^(mysql|mariadb):\/\//.test(e.DESKGATE_DATABASE_URL)) {
    throw new ConfigError(
      `DESKGATE_SCHEMA="osticket" is not valid: osTicket mode needs a mysql:// DESKGATE_DATABASE_URL (osTicket runs on MySQL/MariaDB)`,
    );
  }
  const osticketApi = toOsticketApi(e);
  // node:http refuses a headers timeout longer than the request timeout; say so in config terms.
  if (e.DESKGATE_HEADERS_TIMEOUT > e.DESKGATE_REQUEST_TIMEOUT) {
    const [name, rule] =
      present.DESKGATE_HEADERS_TIMEOUT !== undefined
        ? [
            'DESKGATE_HEADERS_TIMEOUT',
            `must not exceed DESKGATE_REQUEST_TIMEOUT (${e.DESKGATE_REQUEST_TIMEOUT})`,
          ]
        : [
            'DESKGATE_REQUEST_TIMEOUT',
            `must be at least DESKGATE_HEADERS_TIMEOUT (${e.DESKGATE_HEADERS_TIMEOUT})`,
          ];
    throw new ConfigError(`${name}=${JSON.stringify(present[name])} is not valid: ${rule}`);
  }
  return Object.freeze({
    host: e.HOST,
    port: e.PORT,
    databaseUrl: e.DESKGATE_DATABASE_URL,
    basePath: e.DESKGATE_BASE_PATH,
    servicePaths: e.DESKGATE_PATHS as [string, ...string[]],
    bodyLimit: e.DESKGATE_BODY_LIMIT,
    maxList: e.DESKGATE_MAX_LIST,
    maxAnswerBytes: e.DESKGATE_MAX_ANSWER_BYTES,
    eventsSettleMs: e.DESKGATE_EVENTS_SETTLE_MS,
    eventsRetentionDays: e.DESKGATE_EVENTS_RETENTION_DAYS,
    trustProxy: e.DESKGATE_TRUST_PROXY,
    corsOrigins: e.DESKGATE_CORS_ORIGINS,
    publicTopicsOnly: e.DESKGATE_PUBLIC_TOPICS_ONLY,
    inactiveTopics: e.DESKGATE_INACTIVE_TOPICS,
    notFoundStatus: e.DESKGATE_NOT_FOUND_STATUS as 204 | 404,
    migrate: e.DESKGATE_MIGRATE,
    schema: e.DESKGATE_SCHEMA,
    tablePrefix: e.DESKGATE_TABLE_PREFIX,
    osticketSyslog: e.DESKGATE_OSTICKET_SYSLOG,
    osticketAdminWrites: e.DESKGATE_OSTICKET_ADMIN_WRITES,
    osticketKeyAddress: e.DESKGATE_OSTICKET_KEY_ADDRESS,
    osticketUsersRead: e.DESKGATE_OSTICKET_USERS_READ,
    osticketApi,
    topicsAll: e.DESKGATE_TOPICS_ALL,
    endDate: e.DESKGATE_END_DATE,
    catalogueVisibility: e.DESKGATE_CATALOGUE_VISIBILITY,
    pool: {
      max: e.DESKGATE_DB_POOL_MAX,
      connectTimeoutMs: e.DESKGATE_DB_CONNECT_TIMEOUT,
      queryTimeoutMs: e.DESKGATE_DB_QUERY_TIMEOUT,
    },
    keyCacheTtlMs: e.DESKGATE_KEY_CACHE_TTL,
    rateLimitPerMinute: e.DESKGATE_RATE_LIMIT,
    redisUrl: e.DESKGATE_REDIS_URL,
    redisPrefix: e.DESKGATE_REDIS_PREFIX,
    redisTimeoutMs: e.DESKGATE_REDIS_TIMEOUT,
    metrics: e.DESKGATE_METRICS,
    logLevel: e.DESKGATE_LOG_LEVEL,
    logFormat: e.DESKGATE_LOG_FORMAT,
    workers: e.DESKGATE_WORKERS,
    authFailureLimit: e.DESKGATE_AUTH_FAILURE_LIMIT,
    authFailureWindowSeconds: e.DESKGATE_AUTH_FAILURE_WINDOW,
    headersTimeoutMs: e.DESKGATE_HEADERS_TIMEOUT,
    requestTimeoutMs: e.DESKGATE_REQUEST_TIMEOUT,
    keepAliveTimeoutMs: e.DESKGATE_KEEP_ALIVE_TIMEOUT,
    shutdownTimeoutMs: e.DESKGATE_SHUTDOWN_TIMEOUT,
    maxConnections: e.DESKGATE_MAX_CONNECTIONS,
    maxInFlight: e.DESKGATE_MAX_IN_FLIGHT,
    bcryptCost: e.DESKGATE_BCRYPT_COST,
    firstKeyFile: e.DESKGATE_FIRST_KEY_FILE,
    webhooks: toWebhookConfig(e),
  });
}

/** The osTicket API settings, which only make sense together. */
function toOsticketApi(e: z.output<typeof envSchema>): OsticketApiConfig | undefined {
  const url = e.DESKGATE_OSTICKET_URL;
  const key = e.DESKGATE_OSTICKET_API_KEY;
  if (url === undefined && key === undefined) {
    if (e.DESKGATE_OSTICKET_BRIDGE) {
      throw new ConfigError(
        'DESKGATE_OSTICKET_BRIDGE="true" is not valid: the plugin is reached through DESKGATE_OSTICKET_URL and DESKGATE_OSTICKET_API_KEY; set both',
      );
    }
    return undefined;
  }
  if (url === undefined) {
    throw new ConfigError(
      "DESKGATE_OSTICKET_API_KEY is set but DESKGATE_OSTICKET_URL is not: set osTicket's base URL too",
    );
  }
  if (key === undefined) {
    throw new ConfigError(
      `DESKGATE_OSTICKET_URL=${JSON.stringify(url)} is set but DESKGATE_OSTICKET_API_KEY is not: create deskgate's own osTicket API key (bound to deskgate's address) and set it`,
    );
  }
  return {
    url,
    key,
    timeoutMs: e.DESKGATE_OSTICKET_TIMEOUT,
    bridge: e.DESKGATE_OSTICKET_BRIDGE,
    bridgeStaffId: e.DESKGATE_OSTICKET_BRIDGE_STAFF_ID,
  };
}
