import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { topics } from '../../src/data/topics/topics.ts';
import { runCli } from '../helpers/cli.ts';
import { DATABASES, type TestDatabase } from '../helpers/databases.ts';
import { call, userBody } from '../helpers/http.ts';
import { createKey, type StartedServer, startServer, withStore } from '../helpers/server.ts';

/** The most topic notes may hold (topics add/import), in characters. */
const NOTES_LIMIT = 65_535;

// Issue 14, item 12: MySQL's case- and accent-insensitive collations and 64 KiB TEXT must not
// change what deskgate does: every database answers as SQLite does.
for (const kind of DATABASES) {
  describe(`text compared and stored the same way on ${kind.name}`, () => {
    let database: TestDatabase;
    let server: StartedServer;
    let key: string;
    const files: string[] = [];

    function writeTopics(name: string, topics: unknown[]): string {
      const file = join(tmpdir(), `deskgate-${process.pid}-${kind.name}-${name}.json`);
      writeFileSync(file, JSON.stringify(topics));
      files.push(file);
      return file;
    }

    before(async () => {
      database = await kind.create();
      ({ key } = await createKey(database.url));
      server = await startServer({ databaseUrl: database.url });
    });
    after(async () => {
      await server?.stop();
      await database?.drop();
    });

    test('Idempotency-Keys differing only in case are two keys: two users', async () => {
      const stamp = Date.now();
      const first = await call(server.url, {
        method: 'POST',
        headers: { apikey: key, 'Idempotency-Key': `Signup-${stamp}` },
        body: userBody({ email: `upper.${stamp}@example.com` }),
      });
      const second = await call(server.url, {
        method: 'POST',
        headers: { apikey: key, 'Idempotency-Key': `signup-${stamp}` },
        body: userBody({ email: `lower.${stamp}@example.com` }),
      });
      assert.equal(first.status, 200, first.text);
      assert.equal(second.status, 200, second.text);
      assert.notEqual(first.body?.data, second.body?.data);
    });

    test('topics add "feedback" beside "Feedback" is a new topic; "Feedback" again is one clear line', async () => {
      const added = await runCli([
        'topics',
        'add',
        '--topic',
        'feedback',
        '--database',
        database.url,
      ]);
      assert.equal(added.code, 0, added.stderr);
      const again = await runCli([
        'topics',
        'add',
        '--topic',
        'Feedback',
        '--database',
        database.url,
      ]);
      assert.equal(again.code, 1);
      assert.equal(again.stderr.trim().split('\n').length, 1, again.stderr);
      assert.match(again.stderr, /already exists/);
    });

    test(`notes of ${NOTES_LIMIT.toLocaleString('en')} three-byte characters are kept whole; one more is refused`, async () => {
      const notes = '€'.repeat(NOTES_LIMIT);
      const imported = await runCli([
        'topics',
        'import',
        writeTopics('long-notes', [{ id: 5000, topic: 'Long notes', notes }]),
        '--database',
        database.url,
      ]);
      assert.equal(imported.code, 0, imported.stderr);
      const stored = await withStore(database.url, (store) =>
        store.data(topics).findTopicById(5000),
      );
      assert.equal(stored?.notes, notes);

      const refused = await runCli([
        'topics',
        'import',
        writeTopics('too-long-notes', [{ id: 5001, topic: 'Too long', notes: `${notes}€` }]),
        '--database',
        database.url,
      ]);
      assert.equal(refused.code, 1);
      assert.equal(refused.stderr.trim().split('\n').length, 1, refused.stderr);
      assert.match(refused.stderr, /notes/);
    });
  });
}
