import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { users } from '../../src/data/users/users.ts';
import { DATABASES, type TestDatabase } from '../helpers/databases.ts';
import { call, userBody } from '../helpers/http.ts';
import { createKey, startServer, withStore } from '../helpers/server.ts';
import { openRawConnection } from './raw-connection.ts';
import { waitForExit } from './wait-for-output.ts';

interface Outcome {
  email: string;
  status?: number;
  id?: string;
  /** The response came after SIGTERM was sent. */
  afterSignal: boolean;
  error?: string;
}

for (const kind of DATABASES) {
  describe(`graceful shutdown on ${kind.name}`, () => {
    let database: TestDatabase;
    let key: string;

    before(async () => {
      database = await kind.create();
      ({ key } = await createKey(database.url));
    });
    after(async () => {
      await database.drop();
    });

    test('SIGTERM with user/add requests in flight: every 200 has its user, exit 0', async () => {
      // A real bcrypt cost keeps the requests in flight long enough to be interrupted.
      const server = await startServer({
        databaseUrl: database.url,
        env: { DESKGATE_BCRYPT_COST: '10', DESKGATE_SHUTDOWN_TIMEOUT: '60000' },
      });
      let signalled = false;
      const outcomes: Outcome[] = [];
      const requests = Array.from({ length: 30 }, async (_, i) => {
        const email = `shutdown.${i}.${Date.now()}@example.com`;
        const outcome: Outcome = { email, afterSignal: false };
        outcomes.push(outcome);
        try {
          const reply = await call(server.url, {
            method: 'POST',
            headers: { apikey: key },
            body: userBody({ email }),
          });
          outcome.status = reply.status;
          outcome.id = String(reply.body?.data);
          outcome.afterSignal = signalled;
          if (reply.status === 200 && !signalled) {
            signalled = true;
            server.process.kill('SIGTERM');
          }
        } catch (error) {
          outcome.error = (error as Error).message;
        }
      });
      await Promise.all(requests);
      assert.equal(await waitForExit(server), 0, server.output.join('\n'));

      const acknowledged = outcomes.filter((o) => o.status === 200);
      assert.ok(
        acknowledged.some((o) => o.afterSignal),
        'no request was still in flight when SIGTERM came; the test proves nothing',
      );
      for (const o of outcomes) {
        assert.ok(
          o.status === undefined || o.status === 200,
          `unexpected ${o.status} for ${o.email}`,
        );
      }
      // Read back through a store of its own, after the server process has gone.
      await withStore(database.url, async (store) => {
        for (const o of acknowledged) {
          const user = await store.data(users).findUserById(Number(o.id));
          assert.equal(user?.email, o.email, `user ${o.id} was acknowledged but is not stored`);
        }
      });
      assert.ok(server.output.some((line) => line.includes('"deskgate stopped"')));
    });

    // The HTTP edge during a shutdown does not depend on the database: SQLite only (decision 210).
    if (kind.name === 'sqlite') {
      test('SIGTERM while a request is still uploading its body: it is answered with Connection: close, then the server exits 0', async () => {
        const server = await startServer({ databaseUrl: database.url });
        const email = `uploading.${Date.now()}@example.com`;
        const body = JSON.stringify(userBody({ email }));
        const connection = await openRawConnection(server.port);
        try {
          // "100 Continue" proves the server has read the headers: the request is in flight.
          connection.socket.write(
            'POST /upload/svc_wbs/ HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n' +
              `apikey: ${key}\r\nExpect: 100-continue\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n`,
          );
          await connection.waitFor(/^HTTP\/1\.1 100 Continue\r\n\r\n/);
          const exited = server.stop();
          // Not end(): a client that half-closes gives up its request (node:http aborts it).
          connection.socket.write(body.slice(0, 20));
          connection.socket.write(body.slice(20));
          const text = await connection.waitFor(/HTTP\/1\.1 200 [\s\S]*"data":"\d+"/);
          const id = /"data":"(\d+)"/.exec(text)?.[1];
          // The connection is not kept alive past its last response, so it cannot delay the exit.
          assert.match(text, /\r\nConnection: close\r\n/i);
          await connection.closed;
          assert.equal(await exited, 0);
          const user = await withStore(database.url, (store) =>
            store.data(users).findUserById(Number(id)),
          );
          assert.equal(user?.email, email);
        } finally {
          connection.socket.destroy();
          await server.stop();
        }
      });

      test('new connections are refused once shutdown has begun, and the server exits 0 when idle', async () => {
        const server = await startServer({ databaseUrl: database.url });
        // An idle keep-alive connection must not hold the shutdown up.
        const idle = await openRawConnection(server.port);
        idle.socket.write('GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
        await idle.waitFor(/"alive"/);
        assert.equal(await server.stop(), 0);
        await idle.closed;
        await assert.rejects(call(`${server.origin}/healthz`), /ECONNREFUSED|ECONNRESET/);
      });
    }
  });
}
