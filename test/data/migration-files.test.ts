import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  importMigration,
  MIGRATIONS,
  migrationsAmong,
} from '../../src/data/migrations/migrations.ts';

/**
 * The migrations released so far, as deskgate_migration records them in existing databases: a
 * name changed or an order moved would have deskgate run a migration twice or call the database
 * newer than itself. A new migration goes after these and changes nothing here.
 */
const RELEASED = {
  deskgate: [
    '001-initial-schema',
    '002-default-topics',
    '003-exact-text-on-mysql',
    '004-users-created-index',
    '005-generic-idempotency-records',
    '006-tickets',
    '007-phone-as-text',
    '008-catalogue',
    '009-api-key-expiry',
    '010-api-key-agents',
    '011-keyset-filter-indexes',
    '012-teams',
    '013-ticket-changes',
    '014-events',
    '015-webhooks',
    '016-tasks-of-a-ticket-index',
    '017-webhook-owners',
  ],
  osticket: [
    'osticket-001-deskgate-tables',
    'osticket-002-exact-idempotency-keys',
    'osticket-003-generic-idempotency-records',
    'osticket-004-key-grants',
    'osticket-005-events',
    'osticket-006-webhooks',
    'osticket-007-webhook-owners',
  ],
};

describe('the migrations of src/data/migrations/', () => {
  test('keep the released ones first, by their names and in their order', () => {
    for (const layout of ['deskgate', 'osticket'] as const) {
      assert.deepEqual(MIGRATIONS[layout].slice(0, RELEASED[layout].length), RELEASED[layout]);
    }
  });

  test('each export up()', async () => {
    for (const name of [...MIGRATIONS.deskgate, ...MIGRATIONS.osticket]) {
      assert.equal(typeof (await importMigration(name)).up, 'function', name);
    }
  });
});

describe('migrationsAmong (the naming rule)', () => {
  test('orders each layout by number and leaves other files out', () => {
    assert.deepEqual(
      migrationsAmong([
        'osticket-002-b.ts',
        '002-second-one.ts',
        'migrate.ts',
        'osticket-001-a.ts',
        '001-first.ts',
        'column-types.ts',
        'README.md',
      ]),
      {
        deskgate: ['001-first', '002-second-one'],
        osticket: ['osticket-001-a', 'osticket-002-b'],
      },
    );
  });

  test("takes tsc's .js copies, not their .d.ts", () => {
    assert.deepEqual(migrationsAmong(['001-first.js', '001-first.d.ts', 'migrations.js']), {
      deskgate: ['001-first'],
      osticket: [],
    });
  });

  for (const misnamed of [
    '002_second.ts',
    '2-second.ts',
    '0002-second.ts',
    '002-Second.ts',
    '002-second--one.ts',
    '002.ts',
    'osticket-2-second.ts',
    'osticket-second.ts',
  ]) {
    test(`refuses ${misnamed}, which starts like a migration`, () => {
      assert.throws(
        () => migrationsAmong(['001-first.ts', misnamed]),
        new RegExp(`${misnamed.replace('.', '\\.')} starts like a migration but is not named`),
      );
    });
  }

  test('refuses a number skipped', () => {
    assert.throws(
      () => migrationsAmong(['001-first.ts', '003-third.ts', 'osticket-002-b.ts']),
      /no migration 002-…: the numbers skip it; no migration osticket-001-…: the numbers skip it$/,
    );
  });

  test('refuses a number taken twice', () => {
    assert.throws(
      () => migrationsAmong(['001-first.ts', '002-one.ts', '002-other.ts']),
      /two migrations numbered 002: 002-one, 002-other$/,
    );
  });

  test('refuses a test in the folder, which the bundle would take in', () => {
    assert.throws(
      () => migrationsAmong(['001-first.ts', 'first-migration.test.ts']),
      /first-migration\.test\.ts: tests of migrations live in test\//,
    );
  });
});
