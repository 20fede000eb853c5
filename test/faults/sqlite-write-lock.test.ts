import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { after, before, describe, test } from 'node:test';
import { DATABASES, type TestDatabase } from '../helpers/databases.ts';
import { call, topicBody, userBody } from '../helpers/http.ts';
import { ROOT } from '../helpers/paths.ts';
import { createKey, type StartedServer, startServer } from '../helpers/server.ts';

const QUERY_TIMEOUT_MS = 1500;
/** A behavioural bound, not a speed target: far under the 5 s a blocked loop took, far over an answer on a busy machine. */
const PROMPT_MS = 1000;

/** Another process that holds SQLite's write lock (BEGIN IMMEDIATE) until told to let go. */
async function holdWriteLock(
  path: string,
): Promise<{ child: ChildProcess; release(): Promise<void> }> {
  const script = `
    const Database = require('better-sqlite3');
    const db = new Database(process.argv[1]);
    db.exec('begin immediate');
    console.log('locked');
    process.stdin.once('data', () => { db.exec('rollback'); db.close(); process.exit(0); });`;
  const child = spawn(process.execPath, ['-e', script, path], {
    cwd: ROOT,
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const lines = createInterface({ input: child.stdout as NodeJS.ReadableStream });
  await new Promise<void>((resolve, reject) => {
    lines.once('line', (line) => (line === 'locked' ? resolve() : reject(new Error(line))));
    child.once('exit', (code) => reject(new Error(`the lock holder exited with ${code}`)));
  });
  return {
    child,
    async release() {
      child.stdin?.write('go\n');
      if (child.exitCode === null) await once(child, 'exit');
    },
  };
}

async function timed<T>(work: () => Promise<T>): Promise<[T, number]> {
  const started = performance.now();
  const value = await work();
  return [value, performance.now() - started];
}

// Issue 14, item 7: a user/add waiting for another process's write lock on SQLite does not stop
// the event loop: /healthz and topic look-ups answer at once meanwhile.
for (const kind of DATABASES.filter((d) => d.name === 'sqlite')) {
  describe('SQLite write lock held by another process', () => {
    let database: TestDatabase;
    let server: StartedServer;
    let key: string;

    before(async () => {
      database = await kind.create();
      ({ key } = await createKey(database.url));
      server = await startServer({
        databaseUrl: database.url,
        env: { DESKGATE_DB_QUERY_TIMEOUT: String(QUERY_TIMEOUT_MS) },
      });
      // Records the key's last use now, so that look-ups during the lock have nothing to write.
      assert.equal(
        (await call(server.url, { headers: { apikey: key }, body: topicBody(1) })).status,
        200,
      );
    });
    after(async () => {
      await server?.stop();
      await database?.drop();
    });

    async function assertPromptWhileWaiting(): Promise<void> {
      for (let i = 0; i < 3; i++) {
        const [health, healthMs] = await timed(() => call(`${server.origin}/healthz`));
        assert.equal(health.status, 200);
        assert.ok(healthMs < PROMPT_MS, `/healthz took ${Math.round(healthMs)} ms`);
        const [topic, topicMs] = await timed(() =>
          call(server.url, { headers: { apikey: key }, body: topicBody(1) }),
        );
        assert.equal(topic.status, 200, topic.text);
        assert.ok(topicMs < PROMPT_MS, `topics/specific took ${Math.round(topicMs)} ms`);
      }
    }

    test('released within the timeout: look-ups stay prompt, then the user/add succeeds', async () => {
      const lock = await holdWriteLock(database.sqlitePath as string);
      let released = false;
      try {
        const pending = call(server.url, {
          method: 'POST',
          headers: { apikey: key },
          body: userBody(),
        });
        await new Promise((resolve) => setTimeout(resolve, 100));
        await assertPromptWhileWaiting();
        await lock.release();
        released = true;
        const reply = await pending;
        assert.equal(reply.status, 200, reply.text);
      } finally {
        if (!released) await lock.release();
      }
    });

    test('held past the timeout: 503 database_unavailable, look-ups prompt meanwhile, writes resume after', async () => {
      const lock = await holdWriteLock(database.sqlitePath as string);
      try {
        const pending = timed(() =>
          call(server.url, { method: 'POST', headers: { apikey: key }, body: userBody() }),
        );
        await new Promise((resolve) => setTimeout(resolve, 100));
        await assertPromptWhileWaiting();
        const [reply, ms] = await pending;
        assert.equal(reply.status, 503, reply.text);
        assert.equal(reply.body?.code, 'database_unavailable');
        assert.ok(ms >= QUERY_TIMEOUT_MS - 100, `gave up after ${Math.round(ms)} ms`);
      } finally {
        await lock.release();
      }
      const after = await call(server.url, {
        method: 'POST',
        headers: { apikey: key },
        body: userBody(),
      });
      assert.equal(after.status, 200, after.text);
    });
  });
}
