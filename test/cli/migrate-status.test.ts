import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { MIGRATIONS } from '../../src/data/migrations/migrations.ts';
import { runCli } from '../helpers/cli.ts';
import { migrateDatabase } from '../helpers/cli-data.ts';
import { DATABASES, type TestDatabase } from '../helpers/databases.ts';
import { describeWithDatabase, SQLITE } from '../helpers/each-database.ts';
import { runCliJson, runCliText } from './cli-assertions.ts';

const ALL = [...MIGRATIONS.deskgate];

interface Status {
  applied: string[];
  pending: string[];
}

for (const kind of DATABASES) {
  describe(`deskgate migrate --status on ${kind.name}`, () => {
    let database: TestDatabase;
    before(async () => {
      database = await kind.create();
    });
    after(async () => {
      await database.drop();
    });

    test('before migrate: every migration pending, and --status created nothing', async () => {
      const status = await runCliJson<Status>(['migrate', '--status', '--database', database.url]);
      assert.deepEqual(status, { applied: [], pending: ALL });
      // Still not a deskgate database: the status check made no table.
      const list = await runCli(['topics', 'list', '--database', database.url]);
      assert.match(list.stderr, /not \(yet\) a deskgate database/);
    });

    test('after migrate: every migration applied', async () => {
      await migrateDatabase(database.url);
      const status = await runCliJson<Status>(['migrate', '--status', '--database', database.url]);
      assert.deepEqual(status, { applied: ALL, pending: [] });
    });
  });
}

// How --status prints without --json does not depend on the database: SQLite only.
describeWithDatabase('deskgate migrate --status text', SQLITE, (database) => {
  test('after migrate: each migration "applied", then "Up to date."', async () => {
    await migrateDatabase(database.url);
    const text = await runCliText(['migrate', '--status', '--database', database.url]);
    assert.match(text, /applied {2}001-initial-schema\n[\s\S]*Up to date\.\n$/);
  });
});

test('migrate --status on a SQLite file that does not exist does not create it', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'deskgate-status-'));
  try {
    const file = join(dir, 'none.db');
    const text = await runCliText(['migrate', '--status', '--database', `sqlite:${file}`]);
    assert.match(text, new RegExp(`${ALL.length} pending; deskgate migrate applies them\\.\\n$`));
    assert.equal(existsSync(file), false);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
