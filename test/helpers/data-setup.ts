import { type ApiKeyData, apiKeys } from '../../src/data/api-keys/api-keys.ts';
import type { FaqCategoryImport } from '../../src/data/faqs/faq.ts';
import { faqs } from '../../src/data/faqs/faqs.ts';
import { openDatabase } from '../../src/data/open-database.ts';
import { requireCapability } from '../../src/data/osticket/managed-by-osticket.ts';
import type { Store } from '../../src/data/store.ts';
import type { NewTopic, Topic } from '../../src/data/topics/topic.ts';
import { type TopicData, topics } from '../../src/data/topics/topics.ts';
import type { NewUser } from '../../src/data/users/user.ts';
import { type UserData, users } from '../../src/data/users/users.ts';
import { writes } from '../../src/data/writes/writes.ts';
import type { Database } from '../support/own-schema.ts';
import type { KindDatabase } from './each-database.ts';
import type { TestServer } from './test-server.ts';

/*
 * The data set-up the operation suites do past the public interface, through the in-process
 * server's own store (one place to adapt when the data layer changes shape).
 */

/**
 * Adds topics with the ids, sorts and flags the test picks (no operation creates topics), on
 * deskgate's own schema; answers them as stored.
 */
export function insertTopics(
  server: Pick<TestServer, 'store'>,
  list: readonly NewTopic[],
): Promise<Topic[]> {
  return requireCapability(server.store.data(topics).insertTopics, 'help topics')(list);
}

/**
 * insertTopics on any kind of database (describeEachDatabaseKind): in osTicket mode the rows go
 * into `help_topic` as its admin panel writes an active topic. Answers them as stored.
 */
export async function insertTopicsOfKind(
  database: KindDatabase,
  server: Pick<TestServer, 'store'>,
  list: readonly NewTopic[],
): Promise<Topic[]> {
  const { osticket } = database;
  if (!osticket) return insertTopics(server, list);
  const stored: Topic[] = [];
  for (const topic of list) {
    const id = await osticket.insert(
      `INSERT INTO ${osticket.prefix}help_topic (topic_id, topic_pid, ispublic, flags, sort, topic, notes, created, updated) VALUES (?, ?, ?, 2, ?, ?, ?, NOW(), NOW())`,
      [
        topic.id ?? null,
        topic.parentId,
        topic.isPublic ? 1 : 0,
        topic.sort,
        topic.name,
        topic.notes,
      ],
    );
    const found = await findTopicById(server, id);
    if (!found) throw new Error(`topic ${id} was not stored`);
    stored.push(found);
  }
  return stored;
}

/** Imports a FAQ tree as `deskgate faq import` does, on deskgate's own schema. */
export async function importFaqs(store: Store, tree: readonly FaqCategoryImport[]): Promise<void> {
  await requireCapability(store.data(faqs).importCategories, 'FAQ categories and FAQs')(tree);
}

/** Every topic the store holds, as the data layer reads it. */
export function listTopics(server: Pick<TestServer, 'store'>): ReturnType<TopicData['listTopics']> {
  return server.store.data(topics).listTopics();
}

/** A user to store with a bcrypt hash as sent, so no hashing slows the set-up down. */
export type NewUserAt = NewUser;

/** Stores one user through the write path user/add takes (its audit entry included); its id. */
export function storeUser(store: Store, user: NewUser): Promise<number> {
  return store.data(writes).recordWrite({
    actor: { apiKeyId: 1, clientIp: '127.0.0.1', operation: 'user/add' },
    run: (trx, at) => store.data(users).insertUser(trx, user, at),
    targetId: String,
    outcome: String,
    answer: (id) => id,
  });
}

/**
 * Creates users through the store's write path, then sets their creation time to `created`
 * (`YYYY-MM-DD HH:MM:SS`, UTC) in deskgate's own schema, which no operation lets a caller choose.
 */
export async function createUsersCreatedAt(
  server: Pick<TestServer, 'store'>,
  databaseUrl: string,
  list: readonly NewUserAt[],
  created: string,
): Promise<number[]> {
  const ids: number[] = [];
  for (const user of list) ids.push(await storeUser(server.store, user));
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
): ReturnType<UserData['findUserById']> {
  return server.store.data(users).findUserById(id);
}

/** Stores an API key row as given, past issueApiKey's checks (a row an older version wrote). */
export async function createApiKeyRow(
  server: Pick<TestServer, 'store'>,
  row: Parameters<ApiKeyData['createApiKey']>[0],
): Promise<void> {
  await server.store.data(apiKeys).createApiKey(row);
}

/** Revokes the key with `id` as `keys revoke` does. */
export async function revokeApiKey(server: Pick<TestServer, 'store'>, id: number): Promise<void> {
  await server.store.data(apiKeys).revokeApiKey(id);
}

/** The id of the user with `email` (undefined when there is none). */
export function findUserIdByEmail(
  server: Pick<TestServer, 'store'>,
  email: string,
): ReturnType<UserData['findUserIdByEmail']> {
  return server.store.data(users).findUserIdByEmail(email);
}

/** The topic with `id`, as the data layer reads it (undefined when there is none). */
export function findTopicById(
  server: Pick<TestServer, 'store'>,
  id: number,
): ReturnType<TopicData['findTopicById']> {
  return server.store.data(topics).findTopicById(id);
}
