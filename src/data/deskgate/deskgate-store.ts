import { type Kysely, sql } from 'kysely';
import { hashApiKey } from '../../auth/api-key-secret.ts';
import * as idempotency from '../common/idempotency.ts';
import { ownTables } from '../common/own-tables.ts';
import type { Reader } from '../common/prepared-query.ts';
import type { Dialect } from '../dialects/dialect.ts';
import type { Database } from '../schema.ts';
import type { Store } from '../store.ts';
import { makeDeskgateTicketStore } from '../tickets/deskgate-ticket-store.ts';
import * as apiKeys from './api-keys.ts';
import * as topicLookups from './topic-lookups.ts';
import * as topics from './topics.ts';
import * as userLookups from './user-lookups.ts';
import * as users from './users.ts';

/** The Store over deskgate's own schema, on any of the three databases. */
export function makeDeskgateStore(
  db: Kysely<Database>,
  dialect: Dialect,
  reader: Reader<Database>,
): Store {
  const own = ownTables(db);
  return {
    dialect: dialect.name,
    tickets: makeDeskgateTicketStore(db, dialect),
    findTopicById: (id) => topics.findTopicById(reader, id),
    listTopics: () => topics.listTopics(db),
    listTopicsInOrder: (parentId) => topicLookups.listTopicsInOrder(reader, parentId),
    insertTopics: (list) => topics.insertTopics(db, dialect, list),
    countTopics: () => topics.countTopics(db),
    createUser: (user, actor, claim) => users.createUser(db, dialect, user, actor, claim),
    findUserById: (id) => users.findUserById(db, id),
    findUserIdByEmail: (email) => users.findUserIdByEmail(db, email),
    findPasswordHash: (userId) => users.findPasswordHash(db, userId),
    listUsersCreatedBetween: (query) => userLookups.listUsersCreatedBetween(db, query),
    findIdempotencyRecord: (keyId, key) => idempotency.findIdempotencyRecord(own, keyId, key),
    deleteIdempotencyRecordsBefore: (cutoff, only) =>
      idempotency.deleteIdempotencyRecordsBefore(own, cutoff, only),
    createApiKey: (key) => apiKeys.createApiKey(db, dialect, key),
    createFirstApiKey: (key) =>
      dialect.withExclusiveLock(db, 'deskgate_first_key', async (locked) =>
        (await apiKeys.countApiKeys(locked)) > 0
          ? undefined
          : apiKeys.createApiKey(locked, dialect, key),
      ),
    listApiKeys: () => apiKeys.listApiKeys(db),
    revokeApiKey: (id) => apiKeys.revokeApiKey(db, id),
    findApiKeyBySecret: (secret) => apiKeys.findApiKeyByHash(reader, hashApiKey(secret)),
    markApiKeyUsed: (id) => apiKeys.markApiKeyUsed(db, id),
    countApiKeys: () => apiKeys.countApiKeys(db),
    ping: async () => {
      await sql`select 1`.execute(db);
    },
    close: () => db.destroy(),
  };
}
