import assert from 'node:assert/strict';
import { once } from 'node:events';
import { type AddressInfo, createServer } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { apiKeys } from '../../src/data/api-keys/api-keys.ts';
import { users } from '../../src/data/users/users.ts';
import { assertNoStackTrace } from '../cli/cli-assertions.ts';
import { runCli } from '../helpers/cli.ts';
import { DATABASES, type TestDatabase } from '../helpers/databases.ts';
import { call, topicBody, userBody } from '../helpers/http.ts';
import { isAlive } from '../helpers/processes.ts';
import { createKey, type StartedServer, startServer, withStore } from '../helpers/server.ts';
import { readFirstKeyFile } from './first-key-file.ts';
import { openRawConnection } from './raw-connection.ts';
import { logRecords, waitForExit, waitForOutput } from './wait-for-output.ts';

const WORKERS = { DESKGATE_WORKERS: '2' };

/** The pids of the processes that logged `msg`. */
function pidsThatLogged(server: StartedServer, msg: string): Set<number> {
  return new Set(logRecords(server).flatMap((r) => (r.msg === msg ? [Number(r.pid)] : [])));
}

async function waitForWorkers(server: StartedServer): Promise<number[]> {
  await waitForOutput(server, () => pidsThatLogged(server, 'deskgate listening').size === 2);
  return [...pidsThatLogged(server, 'deskgate listening')];
}

for (const kind of DATABASES) {
  describe(`DESKGATE_WORKERS=2 on ${kind.name}`, () => {
    let database: TestDatabase;
    let key: string;

    before(async () => {
      database = await kind.create();
      ({ key } = await createKey(database.url));
    });
    after(async () => {
      await database.drop();
    });

    test('two worker processes serve requests; SIGTERM stops them all and the primary exits 0', async () => {
      const server = await startServer({ databaseUrl: database.url, env: WORKERS });
      try {
        const workers = await waitForWorkers(server);
        assert.ok(!workers.includes(server.process.pid ?? -1), 'the primary itself is no worker');
        // Connections are shared out among the workers; keep asking until both have answered.
        for (let round = 0; round < 20; round++) {
          const replies = await Promise.all(
            Array.from({ length: 10 }, () =>
              call(server.url, { headers: { apikey: key }, body: topicBody(1) }),
            ),
          );
          for (const reply of replies) assert.equal(reply.status, 200);
          if (pidsThatLogged(server, 'request').size === 2) break;
        }
        await waitForOutput(server, () => pidsThatLogged(server, 'request').size === 2);
        assert.deepEqual([...pidsThatLogged(server, 'request')].sort(), [...workers].sort());
      } finally {
        assert.equal(await server.stop(), 0, server.output.join('\n'));
      }
      for (const pid of pidsThatLogged(server, 'deskgate listening')) {
        assert.equal(isAlive(pid), false, `worker ${pid} outlived the primary`);
      }
    });

    test('Ctrl-C (SIGINT to every process of the group) lets an in-flight request finish', async () => {
      const server = await startServer({ databaseUrl: database.url, env: WORKERS });
      const connection = await openRawConnection(server.port);
      try {
        const workers = await waitForWorkers(server);
        // A first exchange ties the connection to one worker; then a request starts on it.
        connection.socket.write('GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
        await connection.waitFor(/"alive"/);
        const email = `ctrl-c.${Date.now()}@example.com`;
        const body = JSON.stringify(userBody({ email }));
        connection.socket.write(
          'POST /upload/svc_wbs/ HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n' +
            `apikey: ${key}\r\nExpect: 100-continue\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n`,
        );
        await connection.waitFor(/100 Continue\r\n\r\n/);
        const answerAt = connection.received().length;
        // What a terminal does on Ctrl-C: every process in the foreground group gets SIGINT.
        for (const pid of workers) process.kill(pid, 'SIGINT');
        server.process.kill('SIGINT');
        // The primary passes the signal on too; give that a moment before the body arrives.
        await waitForOutput(server, (line) => line.includes('"shutting down workers"'));
        connection.socket.write(body);
        const text = await connection.waitFor(
          /^HTTP\/1\.1 \d{3} [\s\S]*\r\n\r\n\{[\s\S]*\}/,
          answerAt,
        );
        assert.match(text, /HTTP\/1\.1 200 /);
        const id = /"data":"(\d+)"/.exec(text)?.[1];
        assert.equal(await waitForExit(server), 0, server.output.join('\n'));
        const user = await withStore(database.url, (store) =>
          store.data(users).findUserById(Number(id)),
        );
        assert.equal(user?.email, email);
      } finally {
        connection.socket.destroy();
        await server.stop();
      }
    });
  });

  describe(`first start with DESKGATE_WORKERS=2 on ${kind.name}`, () => {
    let database: TestDatabase;

    before(async () => {
      database = await kind.create();
    });
    after(async () => {
      await database.drop();
    });

    test('the key is printed once, with the real port, and works', async () => {
      const server = await startServer({ databaseUrl: database.url, env: WORKERS });
      try {
        await waitForWorkers(server);
        const shown = await readFirstKeyFile(server);
        const line = shown.find((l) => /^\s*curl /.test(l)) ?? '';
        const url = /(http:\/\/\S+)/.exec(line)?.[1] ?? '';
        const apikey = /apikey: ([0-9A-F]{32})/.exec(line)?.[1] ?? '';
        assert.equal(new URL(url).port, String(server.port));
        const reply = await call(url, { headers: { apikey }, body: topicBody(1) });
        assert.equal(reply.status, 200);
        assert.equal(shown.filter((l) => /shown only this once/.test(l)).length, 1);
        assert.ok(!server.output.some((l) => l.includes(apikey)), 'the key is not in the log');
        const keys = await withStore(database.url, (store) => store.data(apiKeys).listApiKeys());
        assert.equal(keys.length, 1);
      } finally {
        assert.equal(await server.stop(), 0);
      }
    });
  });

  // A port in use does not depend on the database: SQLite only (decision 210).
  if (kind.name === 'sqlite') {
    describe(`workers that cannot start on ${kind.name}`, () => {
      let database: TestDatabase;

      before(async () => {
        database = await kind.create();
      });
      after(async () => {
        await database.drop();
      });

      // Without a guard the primary waits forever (or forks replacements forever): the test
      // timeout turns that into a failure.
      test('a port in use makes serve exit 1 instead of hanging or restarting workers forever', {
        timeout: 30_000,
      }, async () => {
        const blocker = createServer();
        blocker.listen(0, '127.0.0.1');
        await once(blocker, 'listening');
        try {
          const port = String((blocker.address() as AddressInfo).port);
          const result = await runCli(['serve'], {
            ...WORKERS,
            PORT: port,
            DESKGATE_DATABASE_URL: database.url,
          });
          assert.equal(result.code, 1, result.stderr);
          assert.match(result.stderr, /EADDRINUSE|in use/);
          assertNoStackTrace(result.stderr);
          assert.doesNotMatch(result.stdout, /starting another/);
        } finally {
          blocker.close();
        }
      });
    });
  }
}
