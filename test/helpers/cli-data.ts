import { issueApiKey } from '../../src/auth/issue-api-key.ts';
import { parseExpiry } from '../../src/cli/expiry-input.ts';
import { assertTopicsFit, parseTopicOptions, topicToJson } from '../../src/cli/topic-input.ts';
import { loadConfig } from '../../src/config.ts';
import { apiKeys } from '../../src/data/api-keys/api-keys.ts';
import type { AnyEntity } from '../../src/data/entity.ts';
import { openStore } from '../../src/data/open-store.ts';
import { requireCapability } from '../../src/data/osticket/managed-by-osticket.ts';
import type { Store } from '../../src/data/store.ts';
import type { NewTopic } from '../../src/data/topics/topic.ts';
import { topics } from '../../src/data/topics/topics.ts';
import type { ApiKey, Scope } from '../../src/domain.ts';
import { type TableName, withDatabase } from '../support/database-rows.ts';

/*
 * Set-up and checks for the CLI suites, done in the test process on the database the command
 * under test uses: the commands a test is not about need no child process (each costs 150–500 ms
 * of CPU). They go through the same code as those commands do and, as a command does, load only
 * the entities they use (the whole registry, SERVICE_ENTITIES, costs a test process ~1 s of CPU).
 */

/** Runs `fn` with a Store of `entities` on `databaseUrl`, migrated first, and closes it. */
async function withEntities<T>(
  databaseUrl: string,
  entities: readonly AnyEntity[],
  fn: (store: Store) => Promise<T>,
): Promise<T> {
  const { store } = await openStore({ databaseUrl }, { migrate: true, entities });
  try {
    return await fn(store);
  } finally {
    await store.close();
  }
}

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
  // No entities: a set-up needs the migrations, not the command's checks of osTicket's tables.
  const { store } = await openStore(config, { migrate: true, entities: [] });
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
  const [topic] = await withEntities(databaseUrl, [topics], async (store) => {
    const data = store.data(topics);
    assertTopicsFit(await data.listTopics(), batch);
    return requireCapability(data.insertTopics, 'help topics')(batch);
  });
  if (!topic) throw new Error('insert returned no topic');
  return topicToJson(topic);
}

/** Imports topics as `topics import` does, all or nothing; the number imported. */
export function importTopicList(databaseUrl: string, list: readonly NewTopic[]): Promise<number> {
  return withEntities(databaseUrl, [topics], async (store) => {
    async function* slices() {
      yield [...list];
    }
    return requireCapability(store.data(topics).importTopics, 'help topics')(slices());
  });
}

/** What `createKey` answers: the key as stored, and its secret in clear. */
export type CreatedKey = ApiKey & { key: string };

/**
 * Creates an API key as `keys create` does (issueApiKey: the secret generated and stored hashed),
 * in the test's process. `expires` as `--expires` takes it (`30d`, a UTC date; default never).
 */
export function createKey(
  databaseUrl: string,
  options: {
    scopes?: Scope[];
    allowIps?: string[];
    name?: string;
    notes?: boolean;
    expires?: string;
    agents?: ApiKey['agents'];
  } = {},
): Promise<CreatedKey> {
  return withEntities(databaseUrl, [apiKeys], async (store) => {
    const { apiKey, key } = await issueApiKey(store, {
      name: options.name ?? 'test',
      scopes: options.scopes ?? ['read', 'write'],
      allowIps: options.allowIps ?? [],
      notes: options.notes ?? false,
      expiresAt: parseExpiry(options.expires ?? 'never', '--expires', Date.now()),
      agents: options.agents ?? [],
    });
    return { ...apiKey, key };
  });
}

/** Revokes key `id` as `keys revoke` does. */
export async function revokeKey(databaseUrl: string, id: number): Promise<void> {
  const found = await withEntities(databaseUrl, [apiKeys], (store) =>
    store.data(apiKeys).revokeApiKey(id),
  );
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
