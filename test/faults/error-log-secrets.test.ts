import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import SQLite from 'better-sqlite3';
import { DATABASES, type TestDatabase } from '../helpers/databases.ts';
import { call, userBody } from '../helpers/http.ts';
import { createKey, type StartedServer, startServer } from '../helpers/server.ts';
import { openTestSession } from './database-sessions.ts';

const PASSWORD = 'never-in-a-log-9f4c';

/** Makes every insert into user_accounts fail inside the database, after the hash is computed. */
async function breakAccountInserts(kind: string, database: TestDatabase): Promise<void> {
  if (kind === 'sqlite') {
    const db = new SQLite(database.sqlitePath as string);
    db.exec(
      "create trigger forced_failure before insert on user_accounts begin select raise(abort, 'forced failure'); end",
    );
    db.close();
    return;
  }
  const session = await openTestSession(kind as 'postgres' | 'mysql', database.url);
  try {
    await session.query(
      'alter table user_accounts add constraint forced_failure check (length(password_hash) < 10)',
    );
  } finally {
    await session.close();
  }
}

// Issue 14, item 5: a failed statement's values (the password hash above all) stay out of the log.
for (const kind of DATABASES) {
  describe(`a failing statement's log line on ${kind.name}`, () => {
    let database: TestDatabase;
    let server: StartedServer;
    let key: string;

    before(async () => {
      database = await kind.create();
      ({ key } = await createKey(database.url));
      server = await startServer({ databaseUrl: database.url });
      await breakAccountInserts(kind.name, database);
    });
    after(async () => {
      await server?.stop();
      await database?.drop();
    });

    test('user/add failing in the database: 500, and the log has the cause but no hash or statement', async () => {
      const email = `logged.${Date.now()}@example.com`;
      const reply = await call(server.url, {
        method: 'POST',
        headers: { apikey: key },
        body: userBody({ email, password: PASSWORD }),
      });
      assert.equal(reply.status, 500, reply.text);
      await new Promise((resolve) => setTimeout(resolve, 200));
      // The 500's request line carries its error (level 50, `err`).
      const failure = server.output.find((line) => line.includes('"statusCode":500'));
      assert.ok(failure, server.output.join('\n'));
      assert.match(failure, /forced.failure/i, 'the cause is in the log');
      const log = server.output.join('\n');
      assert.doesNotMatch(log, /\$2[aby]?\$\d\d\$/, 'a bcrypt hash is in the log');
      assert.ok(!log.includes(PASSWORD), 'the password is in the log');
      assert.ok(!log.includes(email), 'the address is in the log');
      assert.doesNotMatch(log, /insert into/i, 'the statement is in the log');
    });
  });
}
