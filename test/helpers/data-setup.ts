import { openDatabase } from '../../src/data/open-database.ts';
import type { Database } from '../../src/data/schema.ts';
import type { Store } from '../../src/data/store.ts';
import type { TestServer } from './test-server.ts';

/*
 * The data set-up the operation suites do past the public interface, through the in-process
 * server's own store (one place to adapt when the data layer changes shape).
 */

/** Adds topics with the ids, sorts and flags the test picks (no operation creates topics). */
export async function insertTopics(
  server: Pick<TestServer, 'store'>,
  topics: Parameters<Store['insertTopics']>[0],
): Promise<void> {
  await server.store.insertTopics(topics);
}

/** Every topic the store holds, as the data layer reads it. */
export function listTopics(server: Pick<TestServer, 'store'>): ReturnType<Store['listTopics']> {
  return server.store.listTopics();
}

/** A bcrypt hash stored as sent, so no hashing slows the set-up down. */
export type NewUserAt = Omit<Parameters<Store['createUser']>[0], 'passwordHash'> & {
  passwordHash: string;
};

/**
 * Creates users through the store, then sets their creation time to `created` (`YYYY-MM-DD
 * HH:MM:SS`, UTC) in deskgate's own schema, which no operation lets a caller choose.
 */
export async function createUsersCreatedAt(
  server: Pick<TestServer, 'store'>,
  databaseUrl: string,
  users: readonly NewUserAt[],
  created: string,
): Promise<number[]> {
  const ids: number[] = [];
  for (const user of users) {
    ids.push(
      await server.store.createUser(user, {
        apiKeyId: 1,
        clientIp: '127.0.0.1',
        operation: 'user/add',
      }),
    );
  }
  const { db } = openDatabase<Database>(databaseUrl);
  try {
    await db.updateTable('users').set({ created_at: created }).where('id', 'in', ids).execute();
  } finally {
    await db.destroy();
  }
  return ids;
}

/** The user with `id`, as the data layer reads it (undefined when there is none). */
export function findUserById(
  server: Pick<TestServer, 'store'>,
  id: number,
): ReturnType<Store['findUserById']> {
  return server.store.findUserById(id);
}

/** Stores an API key row as given, past issueApiKey's checks (a row an older version wrote). */
export async function createApiKeyRow(
  server: Pick<TestServer, 'store'>,
  row: Parameters<Store['createApiKey']>[0],
): Promise<void> {
  await server.store.createApiKey(row);
}
