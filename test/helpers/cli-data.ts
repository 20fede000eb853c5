import { assertTopicsFit, parseTopicOptions, topicToJson } from '../../src/cli/topic-input.ts';
import { loadConfig } from '../../src/config.ts';
import { apiKeys } from '../../src/data/api-keys/api-keys.ts';
import { openStore } from '../../src/data/open-store.ts';
import { requireCapability } from '../../src/data/osticket/managed-by-osticket.ts';
import type { NewTopic } from '../../src/data/topics/topic.ts';
import { topics } from '../../src/data/topics/topics.ts';
import { SERVICE_ENTITIES } from '../../src/server/service-entities.ts';
import { type TableName, withDatabase } from '../support/database-rows.ts';
import { withStore } from './server.ts';

/*
 * Set-up and checks for the CLI suites, done in the test process on the database the command
 * under test uses: the commands a test is not about need no child process (each costs 150–500 ms
 * of CPU). They go through the same code as those commands do.
 */

/** A topic as `topics add --json` prints it. */
export type JsonTopic = ReturnType<typeof topicToJson>;

/**
 * Creates or brings deskgate's tables up to date, as `deskgate migrate` does (its openStore), on
 * the database `env` names as the command would read it (osTicket mode: DESKGATE_SCHEMA, …).
 */
export async function migrateDatabase(
  databaseUrl: string,
  env: Record<string, string> = {},
): Promise<void> {
  const config = loadConfig({ DESKGATE_DATABASE_URL: databaseUrl, ...env });
  const { store } = await openStore(config, { migrate: true, entities: SERVICE_ENTITIES });
  await store.close();
}

/**
 * Adds one topic as `topics add` does (its options, checked against the stored topics); answers
 * it as `topics add --json` prints it.
 */
export async function addTopic(
  databaseUrl: string,
  options: { topic: string; parent?: number; sort?: number; notes?: string; ispublic?: 0 | 1 },
): Promise<JsonTopic> {
  const batch = [parseTopicOptions(options)];
  const [topic] = await withStore(databaseUrl, async (store) => {
    const data = store.data(topics);
    assertTopicsFit(await data.listTopics(), batch);
    return requireCapability(data.insertTopics, 'help topics')(batch);
  });
  if (!topic) throw new Error('insert returned no topic');
  return topicToJson(topic);
}

/** Imports topics as `topics import` does, all or nothing; the number imported. */
export function importTopicList(databaseUrl: string, list: readonly NewTopic[]): Promise<number> {
  return withStore(databaseUrl, async (store) => {
    async function* slices() {
      yield [...list];
    }
    return requireCapability(store.data(topics).importTopics, 'help topics')(slices());
  });
}

/** Revokes key `id` as `keys revoke` does. */
export async function revokeKey(databaseUrl: string, id: number): Promise<void> {
  const found = await withStore(databaseUrl, (store) => store.data(apiKeys).revokeApiKey(id));
  if (!found) throw new Error(`no API key with id ${id}`);
}

/**
 * Every row of `table`, in one order whatever the database returns: compare the rows before and
 * after a command to show it changed nothing.
 */
export async function tableRows(databaseUrl: string, table: TableName): Promise<unknown[]> {
  const rows: unknown[] = await withDatabase(databaseUrl, (db) =>
    db.selectFrom(table).selectAll().execute(),
  );
  const keyed = rows.map((row) => [JSON.stringify(row), row] as const);
  return keyed.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, row]) => row);
}
