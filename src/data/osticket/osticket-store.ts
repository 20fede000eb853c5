import { type Kysely, sql } from 'kysely';
import * as idempotency from '../common/idempotency.ts';
import { ownTables } from '../common/own-tables.ts';
import type { Dialect } from '../dialects/dialect.ts';
import { type Store, UnsupportedInModeError } from '../store.ts';
import * as apiKeys from './api-keys.ts';
import type { OsticketDatabase } from './schema.ts';
import * as topics from './topics.ts';
import * as users from './users.ts';

function managedByOsticket(what: string): () => Promise<never> {
  return async () => {
    throw new UnsupportedInModeError(
      `in osTicket mode ${what} are managed in osTicket's admin panel, not by deskgate`,
    );
  };
}

/**
 * The Store over an existing osTicket database (tables `help_topic`, `user`, … under `prefix`).
 * Topics and API keys are osTicket's to manage; deskgate reads them and creates users.
 */
export function makeOsticketStore(
  db: Kysely<OsticketDatabase>,
  dialect: Dialect,
  prefix: string,
): Store {
  const own = ownTables(db);
  return {
    dialect: dialect.name,
    findTopicById: (id) => topics.findTopicById(db, id),
    listTopics: () => topics.listTopics(db),
    insertTopics: managedByOsticket('help topics'),
    countTopics: () => topics.countTopics(db),
    createUser: (user, actor, claim) => users.createUser(db, dialect, prefix, user, actor, claim),
    findUserById: (id) => users.findUserById(db, prefix, id),
    findUserIdByEmail: (email) => users.findUserIdByEmail(db, email),
    findPasswordHash: (userId) => users.findPasswordHash(db, userId),
    findIdempotencyRecord: (keyId, key) => idempotency.findIdempotencyRecord(own, keyId, key),
    deleteIdempotencyRecordsBefore: (cutoff) =>
      idempotency.deleteIdempotencyRecordsBefore(own, cutoff),
    createApiKey: managedByOsticket('API keys'),
    createFirstApiKey: managedByOsticket('API keys'),
    listApiKeys: () => apiKeys.listApiKeys(db),
    revokeApiKey: managedByOsticket('API keys'),
    findApiKeyBySecret: (secret) => apiKeys.findApiKeyBySecret(db, secret),
    markApiKeyUsed: async () => {},
    countApiKeys: () => apiKeys.countApiKeys(db),
    ping: async () => {
      await sql`select 1`.execute(db);
    },
    close: () => db.destroy(),
  };
}
