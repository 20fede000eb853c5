import { setTimeout as sleep } from 'node:timers/promises';
import { type Kysely, type Selectable, sql } from 'kysely';
import { openDatabase } from '../../src/data/open-database.ts';
import type {
  AuditLogTable,
  Database,
  UserAccountTable,
  UserEmailTable,
  UserTable,
} from './own-schema.ts';

/**
 * A direct connection to a test database, to check the rows the server really wrote. These
 * helpers build SQL so that the tests can see past the Store; nothing in src/ imports this file.
 */

/** Runs `fn` with a Kysely connection of its own to `databaseUrl`, and closes it. */
export async function withDatabase<T>(
  databaseUrl: string,
  fn: (db: Kysely<Database>) => Promise<T>,
): Promise<T> {
  const { db } = openDatabase<Database>(databaseUrl);
  try {
    return await fn(db);
  } finally {
    await db.destroy();
  }
}

export type TableName = keyof Database;

/** Number of rows in each of `tables`, in the same order. */
export async function countRows(
  databaseUrl: string,
  tables: readonly TableName[],
): Promise<number[]> {
  return withDatabase(databaseUrl, async (db) => {
    const counts: number[] = [];
    for (const table of tables) {
      const row = await db
        .selectFrom(table)
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow();
      counts.push(Number(row.n));
    }
    return counts;
  });
}

/** The rows of one user across the three user tables. */
export interface StoredUser {
  user: Selectable<UserTable> | undefined;
  emails: Selectable<UserEmailTable>[];
  accounts: Selectable<UserAccountTable>[];
  audit: Selectable<AuditLogTable>[];
}

export async function readStoredUser(databaseUrl: string, id: number): Promise<StoredUser> {
  return withDatabase(databaseUrl, async (db) => ({
    user: await db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst(),
    emails: await db.selectFrom('user_emails').selectAll().where('user_id', '=', id).execute(),
    accounts: await db.selectFrom('user_accounts').selectAll().where('user_id', '=', id).execute(),
    audit: await db
      .selectFrom('audit_log')
      .selectAll()
      .where('target_id', '=', String(id))
      .execute(),
  }));
}

/** Ids of the users holding `address`, compared case-insensitively. */
export async function findUserIdsByEmail(databaseUrl: string, address: string): Promise<number[]> {
  return withDatabase(databaseUrl, async (db) => {
    const rows = await db
      .selectFrom('user_emails')
      .select('user_id')
      .where('address_key', '=', address.trim().toLowerCase())
      .execute();
    return rows.map((r) => Number(r.user_id));
  });
}

/** Dates the stored answers of `keys` back to 2000, past every expiry. */
export async function expireIdempotencyKeys(
  databaseUrl: string,
  keys: readonly string[],
): Promise<void> {
  await withDatabase(databaseUrl, (db) =>
    db
      .updateTable('idempotency_keys')
      .set({ created_at: '2000-01-01 00:00:00' })
      .where('idempotency_key', 'in', keys)
      .execute(),
  );
}

/** Which of `keys` still have a stored answer, one entry per stored row, sorted. */
export async function storedIdempotencyKeys(
  databaseUrl: string,
  keys: readonly string[],
): Promise<string[]> {
  const rows = await withDatabase(databaseUrl, (db) =>
    db
      .selectFrom('idempotency_keys')
      .select('idempotency_key')
      .where('idempotency_key', 'in', keys)
      .execute(),
  );
  return rows.map((row) => row.idempotency_key).sort();
}

function triggerName(table: TableName): string {
  return `deskgate_test_fail_${table}`;
}

/**
 * Makes every INSERT into `table` fail with a database error, through a trigger: the way to break
 * the creation transaction in the middle without touching the server's code.
 */
export async function injectInsertFailure(databaseUrl: string, table: TableName): Promise<void> {
  const { db, dialect } = openDatabase<Database>(databaseUrl);
  const name = sql.id(triggerName(table));
  const on = sql.table(table);
  try {
    switch (dialect.name) {
      case 'sqlite':
        await sql`CREATE TRIGGER ${name} BEFORE INSERT ON ${on} BEGIN SELECT RAISE(ABORT, 'injected failure'); END`.execute(
          db,
        );
        break;
      case 'postgres':
        await sql`CREATE OR REPLACE FUNCTION deskgate_test_fail() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'injected failure'; END $$`.execute(
          db,
        );
        await sql`CREATE TRIGGER ${name} BEFORE INSERT ON ${on} FOR EACH ROW EXECUTE FUNCTION deskgate_test_fail()`.execute(
          db,
        );
        break;
      case 'mysql':
        await sql`CREATE TRIGGER ${name} BEFORE INSERT ON ${on} FOR EACH ROW SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'injected failure'`.execute(
          db,
        );
        break;
    }
  } finally {
    await db.destroy();
  }
}

/** Undoes injectInsertFailure. */
export async function removeInsertFailure(databaseUrl: string, table: TableName): Promise<void> {
  const { db, dialect } = openDatabase<Database>(databaseUrl);
  const name = sql.id(triggerName(table));
  try {
    if (dialect.name === 'postgres') {
      await sql`DROP TRIGGER ${name} ON ${sql.table(table)}`.execute(db);
    } else {
      await sql`DROP TRIGGER ${name}`.execute(db);
    }
  } finally {
    await db.destroy();
  }
}

/**
 * Waits until the server has written a line containing `text` (its output reaches the test
 * through a pipe, a little after the response); fails after a generous bound.
 */
export async function waitForOutput(
  server: { output: readonly string[] },
  text: string,
): Promise<string> {
  for (let waited = 0; waited < 10_000; waited += 20) {
    const line = server.output.find((l) => l.includes(text));
    if (line !== undefined) return line;
    await sleep(20);
  }
  throw new Error(`the server never wrote ${JSON.stringify(text)}:\n${server.output.join('\n')}`);
}
