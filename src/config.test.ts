import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { describe, test } from 'node:test';
import { ConfigError, loadConfig } from './config.ts';

/** The message of the ConfigError `env` gives. */
function configError(env: Record<string, string>): string {
  try {
    loadConfig(env);
  } catch (error) {
    assert.ok(error instanceof ConfigError, String(error));
    return error.message;
  }
  assert.fail(`${JSON.stringify(env)} was accepted`);
}

describe('loadConfig', () => {
  test('an empty environment gives the documented defaults, frozen', () => {
    const config = loadConfig({});
    assert.equal(Object.isFrozen(config), true);
    assert.equal(config.host, '127.0.0.1');
    assert.equal(config.port, 8080);
    assert.equal(config.databaseUrl, 'sqlite:./data/deskgate.db');
    assert.equal(config.basePath, '');
    assert.equal(config.bodyLimit, 16 * 1024);
    assert.equal(config.maxList, 10_000);
    assert.deepEqual(config.servicePaths, ['/upload/svc_wbs/']);
    assert.deepEqual(config.trustProxy, []);
    assert.equal(config.publicTopicsOnly, false);
    assert.equal(config.inactiveTopics, false);
    assert.equal(config.notFoundStatus, 204);
    assert.equal(config.migrate, true);
    assert.equal(config.schema, 'deskgate');
    assert.equal(config.tablePrefix, 'ost_');
    assert.equal(config.osticketKeyAddress, 'enforce');
    assert.equal(config.osticketUsersRead, 'ticket-keys');
    assert.equal(config.topicsAll, 'all');
    assert.equal(config.endDate, 'whole-day');
    assert.deepEqual(config.pool, { max: 10, connectTimeoutMs: 5_000, queryTimeoutMs: 10_000 });
    assert.equal(config.keyCacheTtlMs, 2_000);
    assert.equal(config.rateLimitPerMinute, 1_200);
    assert.equal(config.redisUrl, undefined);
    assert.equal(config.redisPrefix, 'deskgate');
    assert.equal(config.metrics, true);
    assert.equal(config.logLevel, 'info');
    assert.equal(config.logFormat, 'auto');
    assert.equal(config.workers, 1);
    assert.equal(config.authFailureLimit, 10);
    assert.equal(config.authFailureWindowSeconds, 60);
    assert.equal(config.headersTimeoutMs, 10_000);
    assert.equal(config.requestTimeoutMs, 30_000);
    assert.equal(config.keepAliveTimeoutMs, 5_000);
    assert.equal(config.shutdownTimeoutMs, 10_000);
    assert.equal(config.maxConnections, 10_000);
    assert.equal(config.maxInFlight, 1_000);
    assert.equal(config.bcryptCost, 10);
  });

  test('every variable is read into its field', () => {
    const config = loadConfig({
      HOST: '0.0.0.0',
      PORT: '0',
      DESKGATE_DATABASE_URL: 'mysql://root@db/helpdesk',
      DESKGATE_BASE_PATH: '/helpdesk/api',
      DESKGATE_BODY_LIMIT: '1024',
      DESKGATE_MAX_LIST: '50',
      DESKGATE_MAX_ANSWER_BYTES: '1048576',
      DESKGATE_EVENTS_SETTLE_MS: '7000',
      DESKGATE_EVENTS_RETENTION_DAYS: '7',
      DESKGATE_PATHS: ' /upload/svc_wbs/ , /ost_wbs',
      DESKGATE_TRUST_PROXY: ' loopback , 10.0.0.0/8 ,',
      DESKGATE_CORS_ORIGINS: 'https://portal.example, http://localhost:3000',
      DESKGATE_CATALOGUE_VISIBILITY: 'all',
      DESKGATE_PUBLIC_TOPICS_ONLY: '1',
      DESKGATE_INACTIVE_TOPICS: 'true',
      DESKGATE_NOT_FOUND_STATUS: '404',
      DESKGATE_MIGRATE: 'false',
      DESKGATE_SCHEMA: 'osticket',
      DESKGATE_TABLE_PREFIX: 'help_',
      DESKGATE_DB_POOL_MAX: '3',
      DESKGATE_DB_CONNECT_TIMEOUT: '100',
      DESKGATE_DB_QUERY_TIMEOUT: '200',
      DESKGATE_KEY_CACHE_TTL: '0',
      DESKGATE_RATE_LIMIT: '0',
      DESKGATE_REDIS_URL: 'rediss://cache:6380',
      DESKGATE_REDIS_PREFIX: 'desk:gate_1',
      DESKGATE_REDIS_TIMEOUT: '900',
      DESKGATE_OSTICKET_SYSLOG: 'true',
      DESKGATE_OSTICKET_ADMIN_WRITES: 'true',
      DESKGATE_OSTICKET_KEY_ADDRESS: 'ignore',
      DESKGATE_OSTICKET_USERS_READ: 'ticket-keys',
      DESKGATE_OSTICKET_URL: 'https://help.example.com/support',
      DESKGATE_OSTICKET_API_KEY: '0123456789ABCDEF0123456789abcdef',
      DESKGATE_OSTICKET_TIMEOUT: '2000',
      DESKGATE_OSTICKET_BRIDGE: 'true',
      DESKGATE_OSTICKET_BRIDGE_STAFF_ID: '7',
      DESKGATE_TOPICS_ALL: 'top-level',
      DESKGATE_END_DATE: 'midnight',
      DESKGATE_FIRST_KEY_FILE: '/var/lib/deskgate/first-key.txt',
      DESKGATE_METRICS: '0',
      DESKGATE_LOG_LEVEL: 'silent',
      DESKGATE_LOG_FORMAT: 'json',
      DESKGATE_WORKERS: '64',
      DESKGATE_AUTH_FAILURE_LIMIT: '3',
      DESKGATE_AUTH_FAILURE_WINDOW: '600',
      DESKGATE_HEADERS_TIMEOUT: '1000',
      DESKGATE_REQUEST_TIMEOUT: '1000',
      DESKGATE_KEEP_ALIVE_TIMEOUT: '50',
      DESKGATE_SHUTDOWN_TIMEOUT: '60000',
      DESKGATE_MAX_CONNECTIONS: '0',
      DESKGATE_MAX_IN_FLIGHT: '0',
      DESKGATE_BCRYPT_COST: '4',
      DESKGATE_WEBHOOK_ENCRYPTION_KEY: 'AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8=',
      DESKGATE_WEBHOOK_ALLOW_PRIVATE: '10.0.0.0/8, 127.0.0.0/8',
      DESKGATE_WEBHOOK_TIMEOUT: '500ms',
      DESKGATE_WEBHOOK_RETRY_DELAYS: '1s,2m',
      DESKGATE_WEBHOOK_DISABLE_AFTER: '2d',
      DESKGATE_WEBHOOK_LOG_RETENTION: '3d',
      DESKGATE_WEBHOOK_CONCURRENCY: '2',
      DESKGATE_WEBHOOK_POLL_INTERVAL: '250ms',
    });
    assert.deepEqual(
      { ...config, pool: { ...config.pool } },
      {
        host: '0.0.0.0',
        port: 0,
        databaseUrl: 'mysql://root@db/helpdesk',
        basePath: '/helpdesk/api',
        bodyLimit: 1024,
        maxList: 50,
        maxAnswerBytes: 1_048_576,
        eventsSettleMs: 7000,
        eventsRetentionDays: 7,
        servicePaths: ['/upload/svc_wbs/', '/ost_wbs/'],
        trustProxy: ['loopback', '10.0.0.0/8'],
        corsOrigins: ['https://portal.example', 'http://localhost:3000'],
        catalogueVisibility: 'all',
        publicTopicsOnly: true,
        inactiveTopics: true,
        notFoundStatus: 404,
        migrate: false,
        schema: 'osticket',
        tablePrefix: 'help_',
        osticketSyslog: true,
        osticketAdminWrites: true,
        osticketKeyAddress: 'ignore',
        osticketUsersRead: 'ticket-keys',
        osticketApi: {
          url: 'https://help.example.com/support/',
          key: '0123456789ABCDEF0123456789abcdef',
          timeoutMs: 2000,
          bridge: true,
          bridgeStaffId: 7,
        },
        topicsAll: 'top-level',
        endDate: 'midnight',
        pool: { max: 3, connectTimeoutMs: 100, queryTimeoutMs: 200 },
        keyCacheTtlMs: 0,
        rateLimitPerMinute: 0,
        redisUrl: 'rediss://cache:6380',
        redisPrefix: 'desk:gate_1',
        redisTimeoutMs: 900,
        metrics: false,
        logLevel: 'silent',
        logFormat: 'json',
        workers: 64,
        authFailureLimit: 3,
        authFailureWindowSeconds: 600,
        headersTimeoutMs: 1000,
        requestTimeoutMs: 1000,
        keepAliveTimeoutMs: 50,
        shutdownTimeoutMs: 60000,
        maxConnections: 0,
        maxInFlight: 0,
        bcryptCost: 4,
        firstKeyFile: '/var/lib/deskgate/first-key.txt',
        webhooks: {
          encryptionKeys: [
            {
              id: createHash('sha256')
                .update(Buffer.from('AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8=', 'base64'))
                .digest('hex')
                .slice(0, 8),
              key: Buffer.from('AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8=', 'base64'),
            },
          ],
          allowPrivate: ['10.0.0.0/8', '127.0.0.0/8'],
          timeoutMs: 500,
          maxResponseBytes: 65_536,
          retryDelaysMs: [1_000, 120_000],
          disableAfterMs: 172_800_000,
          logRetentionMs: 259_200_000,
          concurrency: 2,
          pollIntervalMs: 250,
        },
      },
    );
  });

  test('an empty variable counts as unset; numbers may carry surrounding spaces', () => {
    const config = loadConfig({ PORT: '', DESKGATE_BODY_LIMIT: ' 2048 ', DESKGATE_SCHEMA: '' });
    assert.equal(config.port, 8080);
    assert.equal(config.bodyLimit, 2048);
    assert.equal(config.schema, 'deskgate');
  });

  test('the accepted database URL schemes', () => {
    for (const url of [
      'sqlite:./x.db',
      'sqlite::memory:',
      'postgres://u@h/d',
      'postgresql://u@h/d',
      'mysql://u@h/d',
      'mariadb://u@h/d',
    ]) {
      assert.equal(loadConfig({ DESKGATE_DATABASE_URL: url }).databaseUrl, url);
    }
  });

  const refused: [variable: string, value: string][] = [
    ['PORT', 'abc'],
    ['PORT', '70000'],
    ['PORT', ' '],
    ['PORT', '0x1F90'],
    ['PORT', '-1'],
    ['PORT', '80.5'],
    ['DESKGATE_NOT_FOUND_STATUS', '500'],
    ['DESKGATE_DATABASE_URL', 'foo'],
    ['DESKGATE_DATABASE_URL', 'http://db'],
    ['DESKGATE_BODY_LIMIT', '-1'],
    ['DESKGATE_BODY_LIMIT', '0'],
    ['DESKGATE_BODY_LIMIT', '16k'],
    ['DESKGATE_WORKERS', '0'],
    ['DESKGATE_WORKERS', '65'],
    ['DESKGATE_PUBLIC_TOPICS_ONLY', 'yes'],
    ['DESKGATE_MIGRATE', 'TRUE'],
    ['DESKGATE_BASE_PATH', 'helpdesk/'],
    ['DESKGATE_BASE_PATH', '/helpdesk/'],
    ['DESKGATE_BASE_PATH', '/help desk'],
    ['DESKGATE_PATHS', 'ost_wbs'],
    ['DESKGATE_PATHS', '/upload/svc_wbs/,'],
    ['DESKGATE_PATHS', '/ost wbs/'],
    ['DESKGATE_PATHS', '/ost_wbs//'],
    ['DESKGATE_PATHS', '/ost_wbs/,/ost_wbs'],
    ['DESKGATE_PATHS', '/readyz'],
    ['DESKGATE_PATHS', '/docs/api/'],
    ['DESKGATE_MAX_LIST', '0'],
    ['DESKGATE_OSTICKET_KEY_ADDRESS', 'off'],
    ['DESKGATE_OSTICKET_USERS_READ', 'any'],
    // Retired (decision 311): user reads are granted per key.
    ['DESKGATE_OSTICKET_USERS_READ', 'all-keys'],
    ['DESKGATE_TOPICS_ALL', 'children'],
    ['DESKGATE_OSTICKET_URL', 'ftp://help.example.com/'],
    ['DESKGATE_OSTICKET_URL', 'help.example.com'],
    ['DESKGATE_OSTICKET_TIMEOUT', '999'],
    ['DESKGATE_OSTICKET_TIMEOUT', '120001'],
    ['DESKGATE_OSTICKET_BRIDGE', 'yes'],
    ['DESKGATE_OSTICKET_BRIDGE_STAFF_ID', '0'],
    ['DESKGATE_END_DATE', 'exclusive'],
    ['DESKGATE_LOG_LEVEL', 'chatty'],
    ['DESKGATE_LOG_FORMAT', 'xml'],
    ['DESKGATE_SCHEMA', 'phpbb'],
    ['DESKGATE_TABLE_PREFIX', 'ost-'],
    ['DESKGATE_MAX_CONNECTIONS', '-5'],
    ['DESKGATE_MAX_IN_FLIGHT', 'lots'],
    ['DESKGATE_DB_POOL_MAX', '0'],
    ['DESKGATE_KEY_CACHE_TTL', '3600001'],
    ['DESKGATE_REDIS_URL', 'http://cache:6379'],
    ['DESKGATE_REDIS_PREFIX', 'has space'],
    ['DESKGATE_BCRYPT_COST', '3'],
    ['DESKGATE_BCRYPT_COST', '16'],
    ['DESKGATE_TRUST_PROXY', 'loopback, 10.0.0.0/99'],
    ['DESKGATE_TRUST_PROXY', 'nonsense'],
    ['DESKGATE_TRUST_PROXY', 'loopback, 300.1.1.1'],
    ['DESKGATE_TRUST_PROXY', '10.0.0.0/99'],
    // node:http would throw on this pair with a stack trace; it is a configuration error.
    ['DESKGATE_HEADERS_TIMEOUT', '60000'],
  ];
  for (const [variable, value] of refused) {
    test(`${variable}=${JSON.stringify(value)} is refused with a message naming it and the value`, () => {
      const message = configError({ [variable]: value });
      assert.ok(message.startsWith(`${variable}=${JSON.stringify(value)} is not valid: `), message);
      assert.doesNotMatch(message, /\n/);
    });
  }

  test('a refused number says which whole numbers are allowed', () => {
    assert.match(configError({ PORT: '70000' }), /must be a whole number from 0 to 65535/);
    assert.match(configError({ DESKGATE_BODY_LIMIT: '0' }), /must be a whole number of at least 1/);
  });

  test('a bad DESKGATE_TRUST_PROXY entry is explained in proxy-addr terms', () => {
    assert.match(
      configError({ DESKGATE_TRUST_PROXY: '10.0.0.0/99' }),
      /use addresses, CIDR ranges, loopback, linklocal or uniquelocal/,
    );
  });

  test('a bad DESKGATE_PATHS entry is named, with the form paths take', () => {
    assert.match(
      configError({ DESKGATE_PATHS: '/upload/svc_wbs/,ost_wbs' }),
      /"ost_wbs" is not a path; list paths like \/upload\/svc_wbs\/,\/ost_wbs\//,
    );
    assert.match(configError({ DESKGATE_PATHS: '/metrics/' }), /one of deskgate's own addresses/);
  });

  test("deskgate's osTicket API settings: both or neither, and a bad key is never echoed", () => {
    assert.equal(loadConfig({}).osticketApi, undefined);
    const secret = 'not-a-key-but-still-secret';
    const bad = configError({ DESKGATE_OSTICKET_API_KEY: secret });
    assert.match(bad, /^DESKGATE_OSTICKET_API_KEY=… is not valid: must be an osTicket API key/);
    assert.doesNotMatch(bad, new RegExp(secret));
    assert.match(
      configError({ DESKGATE_OSTICKET_URL: 'http://help/' }),
      /DESKGATE_OSTICKET_API_KEY is not: create deskgate's own osTicket API key/,
    );
    assert.match(
      configError({ DESKGATE_OSTICKET_API_KEY: 'A'.repeat(32) }),
      /^DESKGATE_OSTICKET_API_KEY is set but DESKGATE_OSTICKET_URL is not/,
    );
    assert.doesNotMatch(configError({ DESKGATE_OSTICKET_API_KEY: 'A'.repeat(32) }), /AAAA/);
    assert.match(
      configError({ DESKGATE_OSTICKET_BRIDGE: 'true' }),
      /^DESKGATE_OSTICKET_BRIDGE="true" is not valid: .*set both/,
    );
    const config = loadConfig({
      DESKGATE_OSTICKET_URL: 'http://help',
      DESKGATE_OSTICKET_API_KEY: 'a'.repeat(32),
    });
    assert.deepEqual(config.osticketApi, {
      url: 'http://help/',
      key: 'a'.repeat(32),
      timeoutMs: 15_000,
      bridge: false,
      bridgeStaffId: undefined,
    });
  });

  test('osTicket mode needs a MySQL URL', () => {
    assert.match(
      configError({ DESKGATE_SCHEMA: 'osticket', DESKGATE_DATABASE_URL: 'postgres://h/d' }),
      /^DESKGATE_SCHEMA="osticket" is not valid: osTicket mode needs a mysql:\/\//,
    );
    assert.match(configError({ DESKGATE_SCHEMA: 'osticket' }), /^DESKGATE_SCHEMA=/);
  });

  test('a headers timeout above the request timeout names the variable that was set', () => {
    assert.equal(
      configError({ DESKGATE_HEADERS_TIMEOUT: '60000' }),
      'DESKGATE_HEADERS_TIMEOUT="60000" is not valid: must not exceed DESKGATE_REQUEST_TIMEOUT (30000)',
    );
    assert.equal(
      configError({ DESKGATE_REQUEST_TIMEOUT: '5000' }),
      'DESKGATE_REQUEST_TIMEOUT="5000" is not valid: must be at least DESKGATE_HEADERS_TIMEOUT (10000)',
    );
  });
});
