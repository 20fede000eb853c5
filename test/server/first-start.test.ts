import assert from 'node:assert/strict';
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { createServer, type Server } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { apiKeys } from '../../src/data/api-keys/api-keys.ts';
import { topics as topicData } from '../../src/data/topics/topics.ts';
import { assertNoStackTrace } from '../cli/cli-assertions.ts';
import { runCli } from '../helpers/cli.ts';
import { DATABASES, type TestDatabase } from '../helpers/databases.ts';
import { call, topicBody } from '../helpers/http.ts';
import { type StartedServer, startServer, withStore } from '../helpers/server.ts';
import { readFirstKeyFile } from './first-key-file.ts';

/** What the first-start banner tells a person to run. */
interface CurlExample {
  method: string;
  url: string;
  key: string;
  body: string;
}

/** Reads the printed example the way a shell would: the lines from `curl` up to the last `\`. */
function findCurlExample(output: readonly string[]): CurlExample {
  const start = output.findIndex((line) => /^\s*curl /.test(line));
  assert.notEqual(start, -1, `no curl example in:\n${output.join('\n')}`);
  let end = start;
  while (output[end]?.trimEnd().endsWith('\\')) end++;
  const command = output
    .slice(start, end + 1)
    .map((line) => line.trim().replace(/\\$/, ''))
    .join(' ');
  const method = /-X\s+([A-Z]+)/.exec(command)?.[1] ?? 'GET';
  const url = /\s(https?:\/\/\S+)/.exec(command)?.[1];
  const key = /-H\s+'apikey:\s*([^']*)'/i.exec(command)?.[1];
  const body = /-d\s+'([^']*)'/.exec(command)?.[1];
  assert.ok(url && key && body !== undefined, `cannot read the curl example: ${command}`);
  return { method, url, key, body };
}

const HEX_KEY = /\b[0-9A-F]{32}\b/;

for (const kind of DATABASES) {
  describe(`first start on ${kind.name}`, () => {
    let database: TestDatabase;

    before(async () => {
      database = await kind.create();
    });
    after(async () => {
      await database.drop();
    });

    test('prints a key once with a curl example that works; a second start prints none', async () => {
      let example: CurlExample;
      const first = await startServer({ databaseUrl: database.url });
      try {
        const shown = await readFirstKeyFile(first);
        example = findCurlExample(shown);
        assert.match(example.key, /^[0-9A-F]{32}$/);
        assert.equal(
          shown.filter((line) => line.includes(example.key) && !/curl/.test(line)).length,
          1,
          'the key is shown once (besides its use in the example)',
        );
        assert.ok(!first.output.some((line) => line.includes(example.key)), 'not in the log');

        // Do exactly what the example says, over a real socket.
        const reply = await call(example.url, {
          method: example.method,
          headers: { apikey: example.key },
          body: example.body,
        });
        assert.equal(reply.status, 200, reply.text);
        assert.equal(reply.body?.status, 'Success');
        const data = reply.body?.data as { total: number; topic: Record<string, string> };
        assert.equal(data.total, 1);
        assert.equal(data.topic.topic, 'General Inquiry');

        // The key has every scope but admin: it may create users and tickets too.
        const listed = await withStore(database.url, (store) => store.data(apiKeys).listApiKeys());
        assert.equal(listed.length, 1);
        assert.deepEqual(listed[0]?.scopes, [
          'read',
          'write',
          'users:read',
          'tickets:read',
          'tickets:write',
        ]);
        // It writes tickets as no agent (decision 312), and the banner says how to make one that does.
        assert.deepEqual(listed[0]?.agents, []);
        const banner = shown.join('\n');
        assert.match(banner, /writes tickets as no agent/);
        assert.match(banner, /deskgate keys create --name NAME --agent ID/);
      } finally {
        assert.equal(await first.stop(), 0);
      }

      const second = await startServer({ databaseUrl: database.url });
      try {
        const reply = await call(second.url, {
          headers: { apikey: example.key },
          body: topicBody(1),
        });
        assert.equal(reply.status, 200, 'the first key still works after a restart');
        assert.ok(!second.output.some((line) => HEX_KEY.test(line)), second.output.join('\n'));
        assert.ok(!second.output.some((line) => /curl/.test(line)));
        const listed = await withStore(database.url, (store) => store.data(apiKeys).listApiKeys());
        assert.equal(listed.length, 1, 'no second key was created');
      } finally {
        assert.equal(await second.stop(), 0);
      }
    });

    test('the default help topics exist, Access Issue under Report a Problem', async () => {
      const topics = await withStore(database.url, (store) => store.data(topicData).listTopics());
      const byName = new Map(topics.map((t) => [t.name, t]));
      for (const name of ['General Inquiry', 'Feedback', 'Report a Problem']) {
        assert.equal(byName.get(name)?.parentId, 0, `${name} is a top-level topic`);
      }
      assert.equal(byName.get('Access Issue')?.parentId, byName.get('Report a Problem')?.id);
      assert.equal(topics.length, 4);
    });
  });

  describe(`a first start that fails on ${kind.name}`, () => {
    let database: TestDatabase;
    let blocker: Server;

    before(async () => {
      database = await kind.create();
      blocker = createServer();
      blocker.listen(0, '127.0.0.1');
      await once(blocker, 'listening');
    });
    after(async () => {
      blocker.close();
      await database.drop();
    });

    test('a port already in use fails with one line, and the key is shown on the next start', {
      timeout: 30_000,
    }, async () => {
      const port = String((blocker.address() as AddressInfo).port);
      const failed = await runCli(['serve'], { PORT: port, DESKGATE_DATABASE_URL: database.url });
      assert.equal(failed.code, 1);
      assert.ok(!HEX_KEY.test(failed.stdout), 'a key was shown by a server that never listened');
      const errors = failed.stderr.split('\n').filter(Boolean);
      assert.equal(errors.length, 1, failed.stderr);
      assert.match(errors[0] ?? '', /EADDRINUSE|in use/);
      assertNoStackTrace(failed.stderr);

      const server = await startServer({ databaseUrl: database.url });
      try {
        const example = findCurlExample(await readFirstKeyFile(server));
        const reply = await call(example.url, {
          method: example.method,
          headers: { apikey: example.key },
          body: example.body,
        });
        assert.equal(reply.status, 200);
      } finally {
        await server.stop();
      }
    });
  });

  describe(`first start behind a base path on ${kind.name}`, () => {
    let database: TestDatabase;
    let server: StartedServer;

    before(async () => {
      database = await kind.create();
      server = await startServer({
        databaseUrl: database.url,
        env: { DESKGATE_BASE_PATH: '/helpdesk' },
      });
    });
    after(async () => {
      await server.stop();
      await database.drop();
    });

    test('the curl example carries the base path and works', async () => {
      const example = findCurlExample(await readFirstKeyFile(server));
      assert.equal(new URL(example.url).pathname, '/helpdesk/upload/svc_wbs/');
      const reply = await call(example.url, {
        method: example.method,
        headers: { apikey: example.key },
        body: example.body,
      });
      assert.equal(reply.status, 200, reply.text);
    });
  });
}
