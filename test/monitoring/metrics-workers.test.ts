import assert from 'node:assert/strict';
import { once } from 'node:events';
import { Agent, get, type IncomingMessage } from 'node:http';
import { after, before, describe, test } from 'node:test';
import parsePrometheusTextFormat, { type MetricFamily } from 'parse-prometheus-text-format';
import { DATABASES, type TestDatabase } from '../helpers/databases.ts';
import { call, topicBody } from '../helpers/http.ts';
import { promtoolMissing, runPromtool } from '../helpers/promtool.ts';
import { createKey, type StartedServer, startServer } from '../helpers/server.ts';
import { openRawConnection } from '../server/raw-connection.ts';
import { logRecords, waitForOutput } from '../server/wait-for-output.ts';

const KEEP_ALIVE_CONNECTIONS = 4;
const REQUESTS_PER_KEPT_CONNECTION = 6;
const NEW_CONNECTIONS = 12;
const N = KEEP_ALIVE_CONNECTIONS * REQUESTS_PER_KEPT_CONNECTION + NEW_CONNECTIONS;

/** The pids of the processes that logged a request line for operation topics/specific. */
function pidsThatServed(server: StartedServer): Set<number> {
  return new Set(
    logRecords(server).flatMap((r) =>
      r.msg === 'request' && r.operation === 'topics/specific' ? [Number(r.pid)] : [],
    ),
  );
}

function family(families: MetricFamily[], name: string): MetricFamily {
  const found = families.find((f) => f.name === name);
  assert.ok(found, `no ${name} in the scrape`);
  return found;
}

/** GET /metrics on a new connection, so that successive scrapes land on either worker. */
async function scrape(server: StartedServer): Promise<string> {
  const [reply] = (await once(get(`${server.origin}/metrics`, { agent: false }), 'response')) as [
    IncomingMessage,
  ];
  const text = (await reply.toArray()).join('');
  assert.equal(reply.statusCode, 200, text);
  assert.match(String(reply.headers['content-type']), /^text\/plain; version=0\.0\.4/);
  return text;
}

for (const kind of DATABASES) {
  describe(`/metrics with DESKGATE_WORKERS=2 on ${kind.name}`, () => {
    let database: TestDatabase;
    let server: StartedServer;
    let key: string;

    before(async () => {
      database = await kind.create();
      ({ key } = await createKey(database.url));
      server = await startServer({ databaseUrl: database.url, env: { DESKGATE_WORKERS: '2' } });
      await waitForOutput(
        server,
        () => logRecords(server).filter((r) => r.msg === 'deskgate listening').length === 2,
      );
    });
    after(async () => {
      await server?.stop();
      await database?.drop();
    });

    test('one scrape counts every request of both workers, over kept-alive and new connections', async () => {
      const kept = Array.from(
        { length: KEEP_ALIVE_CONNECTIONS },
        () => new Agent({ keepAlive: true, maxSockets: 1 }),
      );
      try {
        const sendOn = async (agent: Agent | undefined) => {
          const reply = await call(server.url, {
            headers: { apikey: key },
            body: topicBody(1),
            ...(agent ? { agent } : {}),
          });
          assert.equal(reply.status, 200, reply.text);
          return reply;
        };
        const replies = await Promise.all([
          ...kept.map(async (agent) => {
            const own = [];
            for (let i = 0; i < REQUESTS_PER_KEPT_CONNECTION; i++) own.push(await sendOn(agent));
            return own;
          }),
          Promise.all(Array.from({ length: NEW_CONNECTIONS }, () => sendOn(undefined))),
        ]);
        const all = replies.flat();
        assert.equal(all.length, N);
        assert.equal(
          all.filter((reply) => reply.reusedSocket).length,
          KEEP_ALIVE_CONNECTIONS * (REQUESTS_PER_KEPT_CONNECTION - 1),
          'the kept-alive connections were reused',
        );
      } finally {
        for (const agent of kept) agent.destroy();
      }
      await waitForOutput(server, () => pidsThatServed(server).size === 2);

      // Several scrapes on new connections reach either worker; each tells the whole group.
      for (let i = 0; i < 4; i++) {
        const text = await scrape(server);
        const families = parsePrometheusTextFormat(text);
        const served = family(families, 'deskgate_requests_total').metrics.filter(
          (m) => m.labels?.operation === 'topics/specific',
        );
        assert.deepEqual(
          served.map((m) => [m.labels?.status, Number(m.value)]),
          [['200', N]],
          text,
        );
        // The parser loses labels and counts of histograms whose `le` comes first, as
        // prom-client writes them: read the one sample line instead.
        assert.match(
          text,
          new RegExp(
            `^deskgate_request_duration_seconds_count\\{operation="topics/specific"\\} ${N}$`,
            'm',
          ),
        );
        for (const f of families) {
          for (const m of f.metrics) {
            assert.ok(!('pid' in (m.labels ?? {})), `${f.name} carries a pid label`);
          }
        }
      }
    });

    test('in-flight, build info and pool series exist and are combined the right way', async () => {
      const families = parsePrometheusTextFormat(await scrape(server));
      const inFlight = family(families, 'deskgate_http_requests_in_flight');
      assert.equal(inFlight.type, 'GAUGE');
      assert.equal(Number(inFlight.metrics[0]?.value), 0);
      const build = family(families, 'deskgate_build_info').metrics;
      assert.equal(build.length, 1);
      // One per worker would add up to 2: build info is taken once, not summed.
      assert.equal(Number(build[0]?.value), 1);
      assert.equal(build[0]?.labels?.version, '0.1.0');
      assert.equal(build[0]?.labels?.node_version, process.version);
      assert.equal(build[0]?.labels?.database, kind.name);
      if (kind.name === 'sqlite') {
        assert.ok(!families.some((f) => f.name.startsWith('deskgate_db_pool')));
      } else {
        const waiting = family(families, 'deskgate_db_pool_waiting_requests');
        assert.equal(Number(waiting.metrics[0]?.value), 0);
        const states = family(families, 'deskgate_db_pool_connections').metrics.map(
          (m) => m.labels?.state,
        );
        assert.deepEqual(states.sort(), ['idle', 'in_use']);
      }
      // Process metrics are the group's: one series each, no per-worker copies.
      assert.equal(family(families, 'process_resident_memory_bytes').metrics.length, 1);
    });

    test('the in-flight gauge adds up the requests both workers are working on', async () => {
      const inFlight = async () =>
        Number(
          family(
            parsePrometheusTextFormat(await scrape(server)),
            'deskgate_http_requests_in_flight',
          ).metrics[0]?.value,
        );
      const body = JSON.stringify(topicBody(1));
      // Two new connections, shared out between the workers; each request waits for its body.
      const connections = await Promise.all([0, 1].map(() => openRawConnection(server.port)));
      try {
        for (const connection of connections) {
          connection.socket.write(
            `GET /upload/svc_wbs/ HTTP/1.1\r\nHost: 127.0.0.1\r\napikey: ${key}\r\n` +
              `Content-Type: application/json\r\nExpect: 100-continue\r\n` +
              `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n`,
          );
          await connection.waitFor(/100 Continue\r\n\r\n/);
        }
        assert.equal(await inFlight(), 2);
        for (const connection of connections) {
          connection.socket.write(body);
          await connection.waitFor(/HTTP\/1\.1 200 [\s\S]*"Success"/);
        }
        assert.equal(await inFlight(), 0);
      } finally {
        for (const connection of connections) connection.socket.destroy();
      }
    });

    test('promtool check metrics passes the whole scrape (exit 0, no lint findings)', {
      skip: promtoolMissing,
    }, async () => {
      const text = await scrape(server);
      const { code, output } = runPromtool(['check', 'metrics'], text);
      assert.equal(code, 0, `promtool exited ${code}: ${output}`);
      assert.equal(output.trim(), '');
    });
  });
}

describe('/metrics when a worker stops answering', () => {
  let database: TestDatabase;
  let server: StartedServer;

  before(async () => {
    const sqlite = DATABASES.find((kind) => kind.name === 'sqlite');
    assert.ok(sqlite);
    database = await sqlite.create();
    server = await startServer({ databaseUrl: database.url, env: { DESKGATE_WORKERS: '2' } });
    await waitForOutput(
      server,
      () => logRecords(server).filter((r) => r.msg === 'deskgate listening').length === 2,
    );
  });
  after(async () => {
    await server?.stop();
    await database?.drop();
  });

  test('the scrape fails with 500 within seconds instead of hanging or reporting half', {
    timeout: 30_000,
  }, async () => {
    const workers = logRecords(server).flatMap((r) =>
      r.msg === 'deskgate listening' ? [Number(r.pid)] : [],
    );
    // A kept-alive connection, and which worker holds it (its request line names the pid).
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    let frozen: number | undefined;
    try {
      await call(`${server.origin}/healthz`, {
        agent,
        headers: { 'X-Request-Id': 'which-worker' },
      }).catch(() => undefined);
      const line = await waitForOutput(server, (l) => l.includes('"which-worker"'));
      const serving = Number((JSON.parse(line) as { pid: number }).pid);
      frozen = workers.find((pid) => pid !== serving);
      assert.ok(frozen);
      process.kill(frozen, 'SIGSTOP');
      const started = Date.now();
      const [reply] = (await once(get(`${server.origin}/metrics`, { agent }), 'response')) as [
        IncomingMessage,
      ];
      const text = (await reply.toArray()).join('');
      assert.equal(reply.statusCode, 500, text);
      assert.match(text, /internal_error/);
      assert.ok(Date.now() - started < 15_000);
      process.kill(frozen, 'SIGCONT');
      frozen = undefined;
      const again = await scrape(server);
      assert.match(again, /^deskgate_build_info\{/m);
    } finally {
      if (frozen !== undefined) process.kill(frozen, 'SIGCONT');
      agent.destroy();
    }
  });
});
