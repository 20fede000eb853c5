import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'kysely';
import { openDatabase } from '../../src/data/open-database.ts';
import { runCli } from '../helpers/cli.ts';
import { DATABASES, type TestDatabase } from '../helpers/databases.ts';

const FUTURE = '999-from-a-newer-deskgate';

// Issue 14, item 13: a database a newer deskgate migrated is refused in one line, never served.
for (const kind of DATABASES) {
  describe(`a database written by a newer deskgate on ${kind.name}`, () => {
    let database: TestDatabase;

    before(async () => {
      database = await kind.create();
      assert.equal((await runCli(['migrate', '--database', database.url])).code, 0);
      const { db } = openDatabase(database.url);
      try {
        await sql`insert into deskgate_migration (name, timestamp) values (${FUTURE}, ${new Date().toISOString()})`.execute(
          db,
        );
      } finally {
        await db.destroy();
      }
    });
    after(async () => {
      await database?.drop();
    });

    const commands: [string, string[], Record<string, string>][] = [
      ['serve', ['serve'], { PORT: '0' }],
      ['serve with DESKGATE_MIGRATE=false', ['serve'], { PORT: '0', DESKGATE_MIGRATE: 'false' }],
      ['migrate', ['migrate'], {}],
      ['keys list', ['keys', 'list'], {}],
    ];
    for (const [label, args, env] of commands) {
      test(`${label}: one line naming the unknown migration, exit 1`, async () => {
        const result = await runCli([...args, '--database', database.url], env);
        assert.equal(result.code, 1, `${result.stdout}\n${result.stderr}`);
        const lines = result.stderr.trim().split('\n');
        assert.equal(lines.length, 1, result.stderr);
        assert.match(
          lines[0] ?? '',
          new RegExp(
            `written by a newer deskgate \\(migration ${FUTURE} unknown\\); upgrade deskgate`,
          ),
        );
        assert.doesNotMatch(result.stdout, /listening/);
      });
    }
  });
}
