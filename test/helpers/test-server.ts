import { after, before, type TestContext } from 'node:test';
import { issueApiKey } from '../../src/auth/issue-api-key.ts';
import { type Config, loadConfig } from '../../src/config.ts';
import type { Store } from '../../src/data/store.ts';
import { SCOPES, type Scope } from '../../src/domain.ts';
import { makeLogger } from '../../src/logger.ts';
import { runServer } from '../../src/server/run-server.ts';
import type { SuiteDatabase } from './each-database.ts';
import { type CallOptions, call, type Reply } from './http.ts';

export interface TestServerOptions {
  /** The suite's database (describeEachDatabase) or a database URL. */
  database: Pick<SuiteDatabase, 'url'> | string;
  /** Variables as in the environment of `deskgate serve`, over the test defaults below. */
  env?: Record<string, string>;
  /** Scopes of `key`, the key made for the test. Default: every scope. */
  scopes?: Scope[];
  /** False: make no key (osTicket mode, where keys come from osTicket's own table). Default true. */
  ownKey?: boolean;
  /** Whether `key` has the notes grant (internal notes, tasks, their events). Default false. */
  notes?: boolean;
}

/** The real server, started in this process on a real socket (port 0). */
export interface TestServer {
  /** e.g. http://127.0.0.1:41234 */
  readonly origin: string;
  readonly port: number;
  /** The service address (the first of DESKGATE_PATHS), e.g. http://127.0.0.1:41234/upload/svc_wbs/ */
  readonly url: string;
  /** A key with `options.scopes` and any agent, made for this server ('' with `ownKey: false`). */
  readonly key: string;
  readonly keyId: number;
  /** Every line the server logged so far (JSON, one per line), written synchronously. */
  readonly output: string[];
  /** The server's own store: set up and inspect data without a second connection. */
  readonly store: Store;
  readonly config: Readonly<Config>;
  /** Whether the server still accepts connections (a crash would have failed the test already). */
  readonly listening: boolean;
  /** One exchange with the service address, `apikey: key` unless the options name headers.apikey or `key: null`. */
  request(body: unknown, options?: TestRequestOptions): Promise<Reply>;
  /** Issues another key on this server's database. */
  createKey(options?: {
    scopes?: Scope[];
    allowIps?: string[];
    name?: string;
    notes?: boolean;
    /** The agents it may write tickets as. Default none. */
    agents?: number[] | 'any';
  }): Promise<{ id: number; key: string }>;
  /** Graceful stop, as on SIGTERM (idempotent). Registered as cleanup already. */
  stop(): Promise<void>;
}

export interface TestRequestOptions extends Omit<CallOptions, 'body'> {
  /** The key to send; null sends none. Default: the server's key. */
  key?: string | null;
}

/**
 * The environment every test server starts from: a free port, JSON logs, cheap bcrypt, and the
 * key cache and per-key limit off (each has tests of its own that turn it on).
 */
const TEST_ENV: Record<string, string> = {
  HOST: '127.0.0.1',
  PORT: '0',
  DESKGATE_LOG_FORMAT: 'json',
  DESKGATE_BCRYPT_COST: '4',
  DESKGATE_KEY_CACHE_TTL: '0',
  DESKGATE_RATE_LIMIT: '0',
};

async function launch(options: TestServerOptions): Promise<TestServer> {
  const databaseUrl =
    typeof options.database === 'string' ? options.database : options.database.url;
  const config = loadConfig({ ...TEST_ENV, DESKGATE_DATABASE_URL: databaseUrl, ...options.env });
  const output: string[] = [];
  const logger = makeLogger(config, {
    write(line: string) {
      output.push(line.endsWith('\n') ? line.slice(0, -1) : line);
    },
  });
  const running = await runServer(config, logger, { announceFirstKey: false });
  let stopped = false;
  const stop = async () => {
    stopped = true;
    await running.stop();
  };
  try {
    const createKey: TestServer['createKey'] = async (keyOptions = {}) => {
      const { apiKey, key } = await issueApiKey(running.store, {
        name: keyOptions.name ?? 'test',
        scopes: keyOptions.scopes ?? ['read', 'write'],
        allowIps: keyOptions.allowIps ?? [],
        notes: keyOptions.notes ?? false,
        agents: keyOptions.agents ?? [],
      });
      return { id: apiKey.id, key };
    };
    const own =
      options.ownKey === false
        ? { id: 0, key: '' }
        : await createKey({
            name: 'test-server',
            scopes: options.scopes ?? [...SCOPES],
            notes: options.notes ?? false,
            // The server's own key may act as any agent, as `keys create --any-agent`.
            agents: 'any',
          });
    // A wildcard address is reached over IPv4 loopback (which a dual-stack `::` accepts too).
    const wildcard = config.host === '0.0.0.0' || config.host === '::';
    const host = wildcard
      ? '127.0.0.1'
      : config.host.includes(':')
        ? `[${config.host}]`
        : config.host;
    const origin = `http://${host}:${running.address.port}`;
    const url = `${origin}${config.basePath}${config.servicePaths[0]}`;
    return {
      origin,
      port: running.address.port,
      url,
      key: own.key,
      keyId: own.id,
      output,
      store: running.store,
      config,
      get listening() {
        return !stopped;
      },
      request(body, { key = own.key, headers = {}, ...rest } = {}) {
        return call(url, {
          ...rest,
          headers: key === null ? headers : { apikey: key, ...headers },
          body,
        });
      },
      createKey,
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}

/**
 * Starts the real server in this process (config from `env` exactly as `deskgate serve` reads
 * it, the real store, limits and HTTP edge) and stops it when `t` ends. For suites, see
 * `useTestServer`.
 */
export async function startTestServer(
  t: Pick<TestContext, 'after'>,
  options: TestServerOptions,
): Promise<TestServer> {
  const server = await launch(options);
  t.after(() => server.stop());
  return server;
}

/**
 * Declares a server for the enclosing `describe`: started in a `before` hook, stopped in an
 * `after` hook (before the suite's database is dropped). Its fields can be read once the suite runs.
 */
export function useTestServer(options: TestServerOptions | (() => TestServerOptions)): TestServer {
  let started: TestServer | undefined;
  before(async () => {
    started = await launch(typeof options === 'function' ? options() : options);
  });
  after(async () => {
    await started?.stop();
  });
  const current = (): TestServer => {
    if (!started) throw new Error('the test server starts in a before hook: use it in tests');
    return started;
  };
  return {
    get origin() {
      return current().origin;
    },
    get port() {
      return current().port;
    },
    get url() {
      return current().url;
    },
    get key() {
      return current().key;
    },
    get keyId() {
      return current().keyId;
    },
    get output() {
      return current().output;
    },
    get store() {
      return current().store;
    },
    get config() {
      return current().config;
    },
    get listening() {
      return current().listening;
    },
    request: (body, requestOptions) => current().request(body, requestOptions),
    createKey: (keyOptions) => current().createKey(keyOptions),
    stop: () => current().stop(),
  };
}
