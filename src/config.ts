import * as z from 'zod';
import {
  boolean,
  integer,
  originList,
  positiveInt,
  proxyList,
  servicePaths,
} from './config-values.ts';
import type { PoolOptions } from './data/dialects/dialect.ts';
import {
  SECRET_WEBHOOK_VARIABLES,
  toWebhookConfig,
  WEBHOOK_ENV,
  type WebhookConfig,
} from './webhooks/webhook-config.ts';

/** One environment variable: how it is read, and what it means (the README's table says it). */
export interface Setting {
  /** The Config field it is read into; none for a part of `pool`, `osticketApi` or `webhooks`. */
  readonly field?: string;
  readonly schema: z.ZodType;
  /** Its meaning, in Markdown: the README's configuration table (scripts/generate-docs.ts). */
  readonly doc: string;
  /** A number of milliseconds, written as a duration such as `10s` or `5d`. */
  readonly duration?: true;
  /** Its value is never echoed, not even a malformed one. */
  readonly secret?: true;
}

/**
 * Every setting, once: the environment's schema, the Config type and the README's configuration
 * table are made from this table. Its order is the order variables are checked in (the first bad
 * one is named) and the README's.
 */
export const SETTINGS = {
  HOST: {
    field: 'host',
    schema: z.string().min(1).default('127.0.0.1'),
    doc: 'interface to listen on',
  },
  PORT: { field: 'port', schema: integer(0, 65535).default(8080), doc: 'port (0: any free port)' },
  DESKGATE_DATABASE_URL: {
    field: 'databaseUrl',
    schema: z
      .string()
      .regex(/^(sqlite:|postgres(ql)?:\/\/|mysql:\/\/|mariadb:\/\/)/, {
        error: 'must start with sqlite:, postgres://, mysql:// or mariadb://',
      })
      .default('sqlite:./data/deskgate.db'),
    doc: '`sqlite:<path>`, `postgres://…` or `mysql://…` (MySQL or MariaDB)',
  },
  DESKGATE_BASE_PATH: {
    field: 'basePath',
    schema: z
      .string()
      .regex(/^(\/[A-Za-z0-9._~-]+)*$/, { error: 'must look like /helpdesk (no trailing slash)' })
      .default(''),
    doc: 'path prefix behind a reverse proxy, e.g. `/helpdesk`',
  },
  DESKGATE_PATHS: {
    field: 'servicePaths',
    schema: servicePaths.default(['/upload/svc_wbs/']),
    doc: "the paths the interface answers at (each also without its trailing slash), below the base path, e.g. `/upload/svc_wbs/,/ost_wbs/` (the original's own documentation put it at `/ost_wbs/`); the first is the one documents and logs name",
  },
  DESKGATE_BODY_LIMIT: {
    field: 'bodyLimit',
    schema: positiveInt.default(16 * 1024),
    doc: 'largest body in bytes (→ 413)',
  },
  DESKGATE_MAX_LIST: {
    field: 'maxList',
    schema: integer(1, 1_000_000).default(10_000),
    doc: 'most elements a list (user/all, topics/all) answers without `parameters.limit`; more → 400 `too_many_results`, never cut short',
  },
  DESKGATE_MAX_ANSWER_BYTES: {
    field: 'maxAnswerBytes',
    schema: integer(65_536, 1_073_741_824).default(4 * 1024 * 1024),
    doc: "most bytes (JSON) a list's elements hold in one answer (default 4 MiB): more without `limit` → 400 `too_many_results`; a page ends early at it, with `next` ([decision 323](docs/decisions/323-list-answers-bounded-in-bytes.md), [PERFORMANCE](docs/PERFORMANCE.md))",
  },
  DESKGATE_EVENTS_SETTLE_MS: {
    field: 'eventsSettleMs',
    schema: integer(0, 600_000).default(5_000),
    doc: 'events/since holds back the events after a gap in the sequence this long (a transaction maybe not committed yet; [decision 381](docs/decisions/381-settle-at-gaps-and-the-write-s-actor.md)); below 3000 the feed may skip an event on PostgreSQL/MySQL',
  },
  DESKGATE_EVENTS_RETENTION_DAYS: {
    field: 'eventsRetentionDays',
    schema: integer(1, 3_650).default(30),
    doc: 'how long the feed keeps events; an older cursor → 410 `cursor_expired`',
  },
  DESKGATE_TRUST_PROXY: {
    field: 'trustProxy',
    schema: proxyList.default([]),
    doc: 'proxies whose `X-Forwarded-For` is believed: addresses, CIDRs, `loopback`, `linklocal`, `uniquelocal`, comma-separated (entries not IP addresses: never); none by default',
  },
  DESKGATE_CORS_ORIGINS: {
    field: 'corsOrigins',
    schema: originList.default([]),
    doc: 'browser origins allowed to call the service, exact and comma-separated (`https://portal.example`); never `*`; none: CORS off',
  },
  DESKGATE_PUBLIC_TOPICS_ONLY: {
    field: 'publicTopicsOnly',
    schema: boolean.default(false),
    doc: '`true` answers non-public topics as not found, as the PHP service did',
  },
  DESKGATE_INACTIVE_TOPICS: {
    field: 'inactiveTopics',
    schema: boolean.default(false),
    doc: 'osticket mode: `true` also answers topics osTicket no longer offers (disabled or archived in its `flags`)',
  },
  DESKGATE_NOT_FOUND_STATUS: {
    field: 'notFoundStatus',
    schema: z
      .enum(['204', '404'])
      .transform((status) => Number(status) as 204 | 404)
      .default(204),
    doc: "a missing topic: `204` (the interface's rule, no body) or `404` (a 404 with the full envelope)",
  },
  DESKGATE_MIGRATE: {
    field: 'migrate',
    schema: boolean.default(true),
    doc: 'run pending migrations at start (`false`: refuse to start on an old schema)',
  },
  DESKGATE_SCHEMA: {
    field: 'schema',
    schema: z.enum(['deskgate', 'osticket']).default('deskgate'),
    doc: '`deskgate` (its own schema) or `osticket`: serve an existing osTicket database in place (MySQL URL)',
  },
  DESKGATE_OSTICKET_SYSLOG: {
    field: 'osticketSyslog',
    schema: boolean.default(false),
    doc: "osticket mode: `true` also writes one row per successful call into osTicket's `syslog` (System Logs), as the PHP service did",
  },
  DESKGATE_OSTICKET_ADMIN_WRITES: {
    field: 'osticketAdminWrites',
    schema: boolean.default(false),
    doc: "osticket mode: `true` lets `keys create --scope admin` make deskgate's own admin keys (in `deskgate_api_keys`, hashed) for department/add, sla/add and sla/delete; their grants are checked only then (decision 270)",
  },
  DESKGATE_OSTICKET_KEY_ADDRESS: {
    field: 'osticketKeyAddress',
    schema: z.enum(['enforce', 'ignore']).default('enforce'),
    doc: "osticket mode: `enforce` refuses a key used from another address than its `ipaddr` (403 `ip_not_allowed`), as osTicket's own API does; `ignore` accepts it from any address, as the PHP service shipped (less safe: [guide](docs/replacing-the-osticket-web-service.md#change-key-address))",
  },
  DESKGATE_OSTICKET_USERS_READ: {
    field: 'osticketUsersRead',
    schema: z
      .enum(['ticket-keys'], {
        error:
          'all-keys is retired (decision 311): grant user reads per key with deskgate osticket keys grant ID --scope users:read',
      })
      .default('ticket-keys'),
    doc: 'retired: `all-keys` is refused at start; grant `users:read` per key with `deskgate osticket keys grant ID --scope users:read` (decision 311)',
  },
  DESKGATE_OSTICKET_URL: {
    schema: z
      .url({
        protocol: /^https?$/,
        error: 'must be an http:// or https:// URL, e.g. https://help.example.com/',
      })
      .transform((url) => (url.endsWith('/') ? url : `${url}/`))
      .optional(),
    doc: "osticket mode: osTicket's base URL (`https://help.example.com/`), for ticket writes by osTicket's own code; set with the key below (unset: ticket writes answer 501)",
  },
  DESKGATE_OSTICKET_API_KEY: {
    schema: z
      .string()
      .regex(/^[A-Fa-f0-9]{32}$/, {
        error: 'must be an osTicket API key (32 hexadecimal digits, Admin panel → Manage → API)',
      })
      .optional(),
    doc: 'osticket mode: deskgate\'s own osTicket API key (bound to deskgate\'s address, "can create tickets"); never logged or echoed',
    secret: true,
  },
  DESKGATE_OSTICKET_TIMEOUT: {
    schema: integer(1_000, 120_000).default(15_000),
    doc: 'ms one call to osTicket may take (1000–120000); beyond it 504 `osticket_timeout`',
  },
  DESKGATE_OSTICKET_BRIDGE: {
    schema: boolean.default(false),
    doc: "`true` once deskgate's osTicket plugin (`osticket-plugin/deskgate-bridge`) is installed: ticket/reply, ticket/close and adds with a department, SLA or status osTicket would not choose",
  },
  DESKGATE_OSTICKET_BRIDGE_STAFF_ID: {
    schema: integer(1, 2_147_483_647).optional(),
    doc: 'the agent the plugin acts as for those adds when the calling key may act as several or any agents (a key of one agent acts as it; decision 312)',
  },
  DESKGATE_TOPICS_ALL: {
    field: 'topicsAll',
    schema: z.enum(['all', 'top-level']).default('all'),
    doc: '`top-level`: topics/all without `parent` answers top-level topics only, as the PHP service did',
  },
  DESKGATE_END_DATE: {
    field: 'endDate',
    schema: z.enum(['whole-day', 'midnight']).default('whole-day'),
    doc: "`midnight`: a bare `end_date` of user/all means its first second, as the PHP service compared (`created <= 'D'`)",
  },
  DESKGATE_CATALOGUE_VISIBILITY: {
    field: 'catalogueVisibility',
    schema: z.enum(['public', 'all']).default('public'),
    doc: "what the department, FAQ and SLA reads answer: `public` what osTicket shows its clients; `all` every row, internal notes included, for an admin's internal client",
  },
  DESKGATE_TABLE_PREFIX: {
    field: 'tablePrefix',
    schema: z
      .string()
      .regex(/^[A-Za-z0-9_]{0,32}$/, { error: 'must be letters, digits and _ (e.g. ost_)' })
      .default('ost_'),
    doc: "osTicket's table prefix, in osticket mode",
  },
  DESKGATE_DB_POOL_MAX: {
    schema: integer(1, 1000).default(10),
    doc: 'PostgreSQL/MySQL connections per process',
  },
  DESKGATE_DB_CONNECT_TIMEOUT: {
    schema: positiveInt.default(5_000),
    doc: 'ms to connect before a request gets 503',
  },
  DESKGATE_DB_QUERY_TIMEOUT: {
    schema: positiveInt.default(10_000),
    doc: "ms one query (lock waits included; on SQLite, the wait for another process's write lock) may take before a 503",
  },
  DESKGATE_KEY_CACHE_TTL: {
    field: 'keyCacheTtlMs',
    schema: integer(0, 3_600_000).default(2_000),
    doc: 'ms a verified API key is trusted without asking the database again; a revoked key stops working within this time (0: at once)',
  },
  DESKGATE_RATE_LIMIT: {
    field: 'rateLimitPerMinute',
    schema: integer(0, 10_000_000).default(1_200),
    doc: 'requests per minute per API key (`RateLimit`/`X-RateLimit-*` headers, 429 beyond); 0: no limit',
  },
  DESKGATE_REDIS_URL: {
    field: 'redisUrl',
    schema: z
      .string()
      .regex(/^rediss?:\/\//, { error: 'must start with redis:// or rediss://' })
      .optional(),
    doc: 'Redis for the rate limits (per key, and failed authentications per address), shared by every instance ([scaling out](docs/scaling-out.md)); unset: each process counts in its memory',
  },
  DESKGATE_REDIS_PREFIX: {
    field: 'redisPrefix',
    schema: z
      .string()
      .regex(/^[A-Za-z0-9:_-]{1,64}$/, { error: 'must be 1 to 64 letters, digits, :, _ or -' })
      .default('deskgate'),
    doc: "prefix of deskgate's Redis keys, so several deployments can share one Redis",
  },
  DESKGATE_REDIS_TIMEOUT: {
    field: 'redisTimeoutMs',
    schema: integer(10, 10_000).default(250),
    doc: 'ms one Redis call may take; beyond it (or on an error) the limits count in memory until Redis answers again',
  },
  DESKGATE_METRICS: {
    field: 'metrics',
    schema: boolean.default(true),
    doc: 'serve Prometheus metrics at `/metrics`, the whole worker group in one scrape ([monitoring](docs/monitoring.md))',
  },
  DESKGATE_LOG_LEVEL: {
    field: 'logLevel',
    schema: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    doc: '`fatal` … `trace`, `silent`',
  },
  DESKGATE_LOG_FORMAT: {
    field: 'logFormat',
    schema: z.enum(['auto', 'json', 'pretty', 'ecs']).default('auto'),
    doc: '`json`, `pretty` (one line per entry), `ecs` (Elastic Common Schema), or `auto` (pretty in a terminal); JSON and ECS lines are written in batches, at most 100 ms late',
  },
  DESKGATE_WORKERS: {
    field: 'workers',
    schema: integer(1, 64).default(1),
    doc: 'worker processes on this machine (node:cluster)',
  },
  DESKGATE_AUTH_FAILURE_LIMIT: {
    field: 'authFailureLimit',
    schema: positiveInt.default(10),
    doc: 'failed authentications answered 401 per address per window; further wrong keys get 429 (valid keys are still served)',
  },
  DESKGATE_AUTH_FAILURE_WINDOW: {
    field: 'authFailureWindowSeconds',
    schema: positiveInt.default(60),
    doc: 'that window, in seconds',
  },
  DESKGATE_HEADERS_TIMEOUT: {
    field: 'headersTimeoutMs',
    schema: positiveInt.default(10_000),
    doc: 'ms to receive the request headers',
  },
  DESKGATE_REQUEST_TIMEOUT: {
    field: 'requestTimeoutMs',
    schema: positiveInt.default(30_000),
    doc: 'ms to receive the whole request',
  },
  DESKGATE_KEEP_ALIVE_TIMEOUT: {
    field: 'keepAliveTimeoutMs',
    schema: positiveInt.default(5_000),
    doc: 'ms an idle keep-alive connection is kept',
  },
  DESKGATE_SHUTDOWN_TIMEOUT: {
    field: 'shutdownTimeoutMs',
    schema: positiveInt.default(10_000),
    doc: 'ms in-flight requests get to finish on SIGTERM/SIGINT; closing the database and Redis gets the rest (≥ 0.5 s), then exit',
  },
  DESKGATE_MAX_CONNECTIONS: {
    field: 'maxConnections',
    schema: integer(0, 1_000_000).default(10_000),
    doc: "open connections per process (node:http's `maxConnections`); beyond it new ones are closed at once, so idle or slow clients cannot exhaust memory or descriptors (0: no limit)",
  },
  DESKGATE_MAX_IN_FLIGHT: {
    field: 'maxInFlight',
    schema: integer(0, 1_000_000).default(1_000),
    doc: 'service requests worked on at once per process; beyond it → 503 `overloaded` with `Retry-After: 1`, not a queue without bound (0: no limit)',
  },
  DESKGATE_BCRYPT_COST: {
    field: 'bcryptCost',
    schema: integer(4, 15).default(10),
    doc: "bcrypt cost for plain passwords (osticket mode always uses osTicket's own, 8)",
  },
  DESKGATE_FIRST_KEY_FILE: {
    field: 'firstKeyFile',
    schema: z.string().optional(),
    doc: 'file (0600) for the first key when stdout is no terminal (a service manager, a container); unset: beside a SQLite database, else `./data/first-api-key.txt`',
  },
  DESKGATE_WEBHOOK_ENCRYPTION_KEY: {
    schema: WEBHOOK_ENV.DESKGATE_WEBHOOK_ENCRYPTION_KEY,
    doc: '32-byte key (base64 or 64 hex; `openssl rand -base64 32`) sealing webhook secrets (AES-256-GCM); without it webhook/add → 501 and a start with webhooks refuses. `NEW,OLD` rotates. Never logged ([webhooks](docs/webhooks.md))',
  },
  DESKGATE_WEBHOOK_ALLOW_PRIVATE: {
    schema: WEBHOOK_ENV.DESKGATE_WEBHOOK_ALLOW_PRIVATE,
    doc: 'CIDR ranges of loopback/private/link-local addresses webhooks may post to (and over plain http), e.g. `10.0.0.0/8,127.0.0.0/8`; none: public addresses only, over https',
  },
  DESKGATE_WEBHOOK_TIMEOUT: {
    schema: WEBHOOK_ENV.DESKGATE_WEBHOOK_TIMEOUT,
    doc: 'the most one delivery attempt may take, connect to answer (`500ms`, `30s`, …)',
    duration: true,
  },
  DESKGATE_WEBHOOK_RETRY_DELAYS: {
    schema: WEBHOOK_ENV.DESKGATE_WEBHOOK_RETRY_DELAYS,
    doc: 'the waits before each retry (network errors, timeouts, 429, 5xx; a longer `Retry-After` wins); then the delivery has failed',
    duration: true,
  },
  DESKGATE_WEBHOOK_DISABLE_AFTER: {
    schema: WEBHOOK_ENV.DESKGATE_WEBHOOK_DISABLE_AFTER,
    doc: 'a webhook whose deliveries fail without a success this long is disabled (logged, in metrics)',
    duration: true,
  },
  DESKGATE_WEBHOOK_LOG_RETENTION: {
    schema: WEBHOOK_ENV.DESKGATE_WEBHOOK_LOG_RETENTION,
    doc: 'how long the delivery log keeps each delivery',
    duration: true,
  },
  DESKGATE_WEBHOOK_CONCURRENCY: {
    schema: WEBHOOK_ENV.DESKGATE_WEBHOOK_CONCURRENCY,
    doc: 'deliveries one instance sends at once; `0`: this instance sends none (another does)',
  },
  DESKGATE_WEBHOOK_POLL_INTERVAL: {
    schema: WEBHOOK_ENV.DESKGATE_WEBHOOK_POLL_INTERVAL,
    doc: 'how often an idle instance looks for new events and due deliveries',
    duration: true,
  },
} as const satisfies Record<string, Setting>;

type Settings = typeof SETTINGS;
type Environment = { [Name in keyof Settings]: z.output<Settings[Name]['schema']> };

/** The settings read straight into a field: each field typed as its schema answers. */
type FieldValues = {
  readonly [Name in keyof Settings as Settings[Name] extends { field: infer Field extends string }
    ? Field
    : never]: z.output<Settings[Name]['schema']>;
};

/**
 * The whole configuration, parsed once from the environment. Nothing else reads `process.env`.
 * What each field means: its variable's `doc` in SETTINGS.
 */
export type Config = FieldValues & {
  /** Connection pool for PostgreSQL and MySQL (DESKGATE_DB_POOL_MAX, …_CONNECT_TIMEOUT, …_QUERY_TIMEOUT). */
  readonly pool: PoolOptions;
  /**
   * osTicket mode: how deskgate reaches osTicket's own code for ticket writes; undefined while
   * `DESKGATE_OSTICKET_URL` and `DESKGATE_OSTICKET_API_KEY` are unset (ticket writes answer 501).
   */
  readonly osticketApi: OsticketApiConfig | undefined;
  /** Webhook delivery: the DESKGATE_WEBHOOK_* settings (src/webhooks/webhook-config.ts). */
  readonly webhooks: WebhookConfig;
};

/** deskgate as a client of osTicket's API (decision 240). */
export interface OsticketApiConfig {
  /** osTicket's base URL with its trailing slash, e.g. `https://help.example.com/`. */
  url: string;
  /** deskgate's own osTicket API key, bound to deskgate's address. Never logged. */
  key: string;
  /** How long one call to osTicket may take, in ms (`DESKGATE_OSTICKET_TIMEOUT`). */
  timeoutMs: number;
  /** Whether deskgate's osTicket plugin (osticket-plugin/deskgate-bridge) is installed and enabled. */
  bridge: boolean;
  /** The agent the plugin acts as for ticket/add (it has no `staff_id`); undefined: none. */
  bridgeStaffId: number | undefined;
}

const envSchema = z.object(
  Object.fromEntries(Object.entries(SETTINGS).map(([name, setting]) => [name, setting.schema])) as {
    [Name in keyof Settings]: Settings[Name]['schema'];
  },
);

const SECRET_VARIABLES: readonly string[] = [
  ...Object.entries(SETTINGS as Record<string, Setting>).flatMap(([name, setting]) =>
    setting.secret ? [name] : [],
  ),
  ...SECRET_WEBHOOK_VARIABLES,
];

export class ConfigError extends Error {
  override name = 'ConfigError';
}

/** Parses the environment; throws a ConfigError whose message names the first bad variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Readonly<Config> {
  const present = Object.fromEntries(
    Object.entries(env).filter(([, v]) => v !== undefined && v !== ''),
  );
  // Parsed once a process: zod's compiled fast path for an object (built with `new Function`)
  // costs a command more to build (~6 ms of CPU) than it saves.
  const result = envSchema.safeParse(present, { jitless: true });
  if (!result.success) {
    const issue = result.error.issues[0];
    const name = String(issue?.path[0] ?? 'environment');
    // A secret is never echoed, not even a malformed one.
    const value = SECRET_VARIABLES.includes(name) ? '…' : JSON.stringify(present[name]);
    throw new ConfigError(`${name}=${value} is not valid: ${issue?.message ?? 'invalid value'}`);
  }
  const e = result.data as Environment;
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
  const fields = Object.fromEntries(
    Object.entries(SETTINGS as Record<string, Setting>).flatMap(([name, setting]) =>
      setting.field ? [[setting.field, e[name as keyof Environment]]] : [],
    ),
  ) as FieldValues;
  return Object.freeze({
    ...fields,
    pool: {
      max: e.DESKGATE_DB_POOL_MAX,
      connectTimeoutMs: e.DESKGATE_DB_CONNECT_TIMEOUT,
      queryTimeoutMs: e.DESKGATE_DB_QUERY_TIMEOUT,
    },
    osticketApi,
    webhooks: toWebhookConfig(e),
  });
}

/** The osTicket API settings, which only make sense together. */
function toOsticketApi(e: Environment): OsticketApiConfig | undefined {
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
