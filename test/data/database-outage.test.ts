import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { runCli } from '../helpers/cli.ts';
import { DATABASES } from '../helpers/databases.ts';
import { describeWithDatabase } from '../helpers/each-database.ts';
import { call, topicBody } from '../helpers/http.ts';
import { startTcpProxy, type TcpProxy, viaProxy } from '../helpers/tcp-proxy.ts';
import { useTestServer } from '../helpers/test-server.ts';

async function eventually<T>(attempt: () => Promise<T>, accept: (value: T) => boolean): Promise<T> {
  let last: T | undefined;
  for (let i = 0; i < 50; i++) {
    last = await attempt();
    if (accept(last)) return last;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return last as T;
}

for (const kind of DATABASES.filter((d) => d.name !== 'sqlite')) {
  describeWithDatabase(`database outage on ${kind.name}`, kind, (database) => {
    let proxy: TcpProxy;
    before(async () => {
      const target = viaProxy(database.url, 0);
      proxy = await startTcpProxy(target.host, target.port);
    });
    const server = useTestServer(() => ({
      database: viaProxy(database.url, proxy.port).url,
      env: { DESKGATE_DB_CONNECT_TIMEOUT: '1000' },
    }));
    let key: string;
    before(() => {
      key = server.key;
    });
    after(async () => {
      await proxy?.close();
    });

    test('unreachable at request time: 503 database_unavailable with Retry-After, then recovery', async () => {
      const healthy = await call(server.url, { headers: { apikey: key }, body: topicBody(1) });
      assert.equal(healthy.status, 200);

      await proxy.cut();
      const down = await call(server.url, { headers: { apikey: key }, body: topicBody(1) });
      assert.equal(down.status, 503, down.text);
      assert.equal(down.body?.code, 'database_unavailable');
      assert.ok(Number(down.headers['retry-after']) > 0);
      const ready = await call(`${server.origin}/readyz`);
      assert.equal(ready.status, 503);
      const alive = await call(`${server.origin}/healthz`);
      assert.equal(alive.status, 200, 'the process itself is alive');

      await proxy.restore();
      const back = await eventually(
        () => call(server.url, { headers: { apikey: key }, body: topicBody(1) }),
        (r) => r.status === 200,
      );
      assert.equal(back.status, 200);
      assert.equal((await call(`${server.origin}/readyz`)).status, 200);
    });

    test('unreachable at start: one clear line, exit 1', async () => {
      const closed = await startTcpProxy('127.0.0.1', 1);
      const url = viaProxy(database.url, closed.port).url;
      await closed.close();
      const result = await runCli(['serve'], {
        DESKGATE_DATABASE_URL: url,
        PORT: '0',
        DESKGATE_DB_CONNECT_TIMEOUT: '1000',
      });
      assert.equal(result.code, 1);
      const lines = result.stderr.trim().split('\n');
      assert.equal(lines.length, 1, result.stderr);
      assert.match(lines[0] ?? '', /database/i);
    });
  });
}
