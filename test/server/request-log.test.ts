import assert from 'node:assert/strict';
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { hostname } from 'node:os';
import { dirname } from 'node:path';
import { createInterface } from 'node:readline';
import { after, before, describe, test } from 'node:test';
import { setInterval } from 'node:timers/promises';
import { stripVTControlCharacters } from 'node:util';
import { builtCli } from '../helpers/built-cli.ts';
import { DATABASES, type TestDatabase } from '../helpers/databases.ts';
import { call, topicBody } from '../helpers/http.ts';
import { ROOT } from '../helpers/paths.ts';
import { createKey } from '../helpers/server.ts';
import { openRawConnection } from './raw-connection.ts';

const sqlite = DATABASES.find((kind) => kind.name === 'sqlite');
assert.ok(sqlite);

interface LoggingServer {
  origin: string;
  port: number;
  lines: string[];
  stop(): Promise<void>;
}

/**
 * `deskgate serve` as a child process with the given log format; unlike the shared helper it
 * reads the port from any of the formats (JSON, ECS, pretty) and keeps the lines as written.
 */
async function startLoggingServer(
  databaseUrl: string,
  env: Record<string, string>,
): Promise<LoggingServer> {
  const child: ChildProcess = spawn(process.execPath, [await builtCli(), 'serve'], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH,
      HOST: '127.0.0.1',
      PORT: '0',
      DESKGATE_DATABASE_URL: databaseUrl,
      DESKGATE_KEY_CACHE_TTL: '0',
      DESKGATE_RATE_LIMIT: '0',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: string[] = [];
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no start:\n${lines.join('\n')}`)), 15_000);
    for (const stream of [child.stdout, child.stderr]) {
      createInterface({ input: stream as NodeJS.ReadableStream }).on('line', (line) => {
        lines.push(line);
        const plain = stripVTControlCharacters(line);
        const port =
          /deskgate listening.*"port":(\d+)|"(?:server\.)?port":(\d+).*deskgate listening/.exec(
            plain,
          );
        if (port) {
          clearTimeout(timer);
          resolve(Number(port[1] ?? port[2]));
        }
      });
    }
    child.once('exit', (code) => reject(new Error(`exited ${code}:\n${lines.join('\n')}`)));
  });
  return {
    origin: `http://127.0.0.1:${port}`,
    port,
    lines,
    async stop() {
      if (child.exitCode !== null) return;
      child.kill('SIGTERM');
      await once(child, 'exit');
    },
  };
}

/** Waits until `count` lines satisfy `matches` (or fails after 10 s), and returns them. */
async function linesMatching(
  server: LoggingServer,
  matches: (line: string) => boolean,
  count: number,
): Promise<string[]> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const found = server.lines.filter(matches);
    if (found.length >= count) return found;
    if (Date.now() > deadline)
      throw new Error(`expected lines not seen:\n${server.lines.join('\n')}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Holds one service call in flight (it waits for its body), so the next one is shed with 503. */
async function answerOverloaded(server: LoggingServer, key: string): Promise<void> {
  const held = await openRawConnection(server.port);
  try {
    held.socket.write(
      `GET /upload/svc_wbs/ HTTP/1.1\r\nHost: 127.0.0.1\r\napikey: ${key}\r\n` +
        'Expect: 100-continue\r\nContent-Type: application/json\r\nContent-Length: 80\r\n\r\n',
    );
    await held.waitFor(/100 Continue/);
    const shed = await call(`${server.origin}/upload/svc_wbs/`, {
      headers: { apikey: key },
      body: topicBody(1),
    });
    assert.equal(shed.status, 503, shed.text);
  } finally {
    held.socket.destroy();
  }
}

describe('request log lines', () => {
  let database: TestDatabase;
  let key: string;
  const wrongKey = '0123456789ABCDEF0123456789ABCDEF';

  before(async () => {
    database = await sqlite.create();
    ({ key } = await createKey(database.url));
  });
  after(async () => {
    await database?.drop();
  });

  test('JSON: pino-http shape, info for 2xx, warn for 4xx, error for 5xx, hostname kept, no key', async () => {
    const server = await startLoggingServer(database.url, {
      DESKGATE_LOG_FORMAT: 'json',
      DESKGATE_MAX_IN_FLIGHT: '1',
    });
    try {
      const ok = await call(`${server.origin}/upload/svc_wbs/?apikey=${key}`, {
        headers: { apikey: key, 'X-Request-Id': 'log-ok' },
        body: topicBody(1),
      });
      assert.equal(ok.status, 200, ok.text);
      const refused = await call(`${server.origin}/upload/svc_wbs/`, {
        headers: { apikey: wrongKey, 'X-Request-Id': 'log-refused' },
        body: topicBody(1),
      });
      assert.equal(refused.status, 401);
      await answerOverloaded(server, key);

      const requests = (await linesMatching(server, (l) => l.includes('"msg":"request"'), 3)).map(
        (line) => JSON.parse(line) as Record<string, unknown>,
      );
      const byStatus = new Map(
        requests.map((r) => [(r.res as { statusCode: number }).statusCode, r]),
      );
      const answered = byStatus.get(200);
      assert.ok(answered);
      assert.equal(answered.level, 30);
      assert.equal(answered.hostname, hostname());
      assert.equal(typeof answered.pid, 'number');
      assert.equal(typeof answered.responseTime, 'number');
      assert.deepEqual(answered.req, {
        id: 'log-ok',
        method: 'GET',
        // The query string is never logged: a caller could put anything there.
        url: '/upload/svc_wbs/',
        remoteAddress: '127.0.0.1',
      });
      assert.equal(answered.operation, 'topics/specific');
      assert.equal(byStatus.get(401)?.level, 40);
      assert.equal(byStatus.get(503)?.level, 50);
    } finally {
      await server.stop();
    }
    const log = server.lines.join('\n');
    assert.ok(!log.includes(key), 'the key is in the log');
    assert.ok(!log.includes(wrongKey), 'the wrong key is in the log');
  });

  test('JSON: every line reaches stdout whole, in batches and at shutdown', async () => {
    const server = await startLoggingServer(database.url, { DESKGATE_LOG_FORMAT: 'json' });
    // About 80 KiB of lines: full batches, then a part batch that the periodic flush or the
    // shutdown writes.
    const requests = 320;
    try {
      for (let sent = 0; sent < requests; sent += 16) {
        await Promise.all(
          Array.from({ length: 16 }, async (_, i) => {
            const reply = await fetch(`${server.origin}/healthz`, {
              headers: { 'X-Request-Id': `batch-${sent + i}` },
            });
            assert.equal(reply.status, 200);
            await reply.text();
          }),
        );
      }
    } finally {
      await server.stop();
    }
    const logged = server.lines
      .filter((line) => line.includes('"msg":"request"'))
      .map((line) => JSON.parse(line) as { req: { id: string } });
    const ids = new Set(logged.map((entry) => entry.req.id));
    for (let i = 0; i < requests; i++) assert.ok(ids.has(`batch-${i}`), `batch-${i} not logged`);
  });

  test('pretty: one line per request', async () => {
    const server = await startLoggingServer(database.url, { DESKGATE_LOG_FORMAT: 'pretty' });
    try {
      const before = server.lines.length;
      for (const path of ['/healthz', '/nowhere', '/healthz']) {
        await call(`${server.origin}${path}`, { headers: { apikey: key } });
      }
      const lines = await linesMatching(
        server,
        (l) => /GET \/(healthz|nowhere) /.test(stripVTControlCharacters(l)),
        3,
      );
      const plain = lines.map(stripVTControlCharacters);
      assert.match(plain[0] ?? '', /INFO .*GET \/healthz 200 [\d.]+ms/);
      assert.match(plain[1] ?? '', /WARN .*GET \/nowhere 404 [\d.]+ms/);
      assert.equal(server.lines.length - before, 3, server.lines.slice(before).join('\n'));
    } finally {
      await server.stop();
    }
    assert.ok(!server.lines.join('\n').includes(key), 'the key is in the log');
    // Issue 37, item 13: a pipe or a file got ANSI colour codes.
    assert.deepEqual(
      server.lines.filter((line) => line.includes('\u001b[')),
      [],
      'colour codes written to a pipe',
    );
  });

  test('pretty on a terminal: coloured', {
    skip: spawnSync('script', ['--version']).status === 0 ? false : 'no script(1) here',
  }, async () => {
    // script(1) gives the server a pseudo-terminal as stdout, as a person's shell does.
    const child = spawn('script', ['-qefc', `exec node ${await builtCli()} serve`, '/dev/null'], {
      cwd: ROOT,
      detached: true,
      env: {
        PATH: `${dirname(process.execPath)}:${process.env.PATH}`,
        TERM: 'xterm',
        HOST: '127.0.0.1',
        PORT: '0',
        DESKGATE_DATABASE_URL: database.url,
        DESKGATE_LOG_FORMAT: 'pretty',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    const exited = once(child, 'exit');
    try {
      for await (const _ of setInterval(20)) {
        if (/deskgate listening/.test(output) || child.exitCode !== null) break;
      }
      const listening = output.split('\n').find((line) => line.includes('deskgate listening'));
      assert.ok(listening, output);
      assert.notEqual(stripVTControlCharacters(listening), listening, 'no colour on a terminal');
    } finally {
      if (child.pid) process.kill(-child.pid, 'SIGTERM');
      await exited;
    }
  });

  test('ECS: Elastic Common Schema fields, with the level and the request in ECS names', async () => {
    const server = await startLoggingServer(database.url, { DESKGATE_LOG_FORMAT: 'ecs' });
    try {
      const reply = await call(`${server.origin}/upload/svc_wbs/`, {
        headers: { apikey: wrongKey, 'X-Request-Id': 'log-ecs' },
        body: topicBody(1),
      });
      assert.equal(reply.status, 401);
      const [line] = await linesMatching(server, (l) => l.includes('"log-ecs"'), 1);
      const entry = JSON.parse(line ?? '{}') as Record<string, unknown>;
      assert.equal(entry['log.level'], 'warn');
      assert.equal(entry.message, 'request');
      assert.equal(entry['host.hostname'], hostname());
      assert.equal(typeof entry['ecs.version'], 'string');
      assert.equal(entry['service.name'], 'deskgate');
      assert.equal(entry['http.request.method'], 'GET');
      assert.equal(entry['url.path'], '/upload/svc_wbs/');
      assert.equal(entry['http.response.status_code'], 401);
      assert.equal(typeof entry['event.duration'], 'number');
      assert.equal(entry.req, undefined);
      const listening = server.lines.find((l) => l.includes('deskgate listening')) ?? '{}';
      // ECS's `host` is an object: the listening address goes to server.*.
      assert.equal((JSON.parse(listening) as Record<string, unknown>)['server.port'], server.port);
    } finally {
      await server.stop();
    }
    assert.ok(!server.lines.join('\n').includes(wrongKey), 'the key is in the log');
  });
});
