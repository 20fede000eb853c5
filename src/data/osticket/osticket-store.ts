import type { Kysely } from 'kysely';
import * as idempotency from '../common/idempotency.ts';
import { ownTables } from '../common/own-tables.ts';
import { makeReader } from '../common/prepared-query.ts';
import type { Dialect } from '../dialects/dialect.ts';
import { type Store, UnsupportedInModeError } from '../store.ts';
import { makeOsticketTicketStore } from '../tickets/osticket-ticket-store.ts';
import * as apiKeys from './api-keys.ts';
import { assertTablesReadable } from './assert-tables-readable.ts';
import type { OsticketDatabase } from './schema.ts';
import { insertSyslogEntry } from './syslog.ts';
import * as topicLookups from './topic-lookups.ts';
import * as topics from './topics.ts';
import * as userLookups from './user-lookups.ts';
import * as users from './users.ts';

export interface OsticketStoreOptions {
  /** DESKGATE_OSTICKET_SYSLOG: also log each successful call in osTicket's `syslog`. */
  syslog?: boolean;
}

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
  options: OsticketStoreOptions = {},
): Store {
  const own = ownTables(db);
  const reader = makeReader(db);
  const syslog = options.syslog === true;
  return {
    dialect: dialect.name,
    tickets: makeOsticketTicketStore(db),
    findTopicById: (id) => topics.findTopicById(reader, id),
    listTopics: () => topics.listTopics(db),
    listTopicsInOrder: (parentId) => topicLookups.listTopicsInOrder(reader, parentId),
    insertTopics: managedByOsticket('help topics'),
    countTopics: () => topics.countTopics(db),
    createUser: (user, actor, claim) =>
      users.createUser(db, dialect, prefix, user, actor, claim, { syslog }),
    findUserById: (id) => users.findUserById(db, prefix, id),
    findUserIdByEmail: (email) => users.findUserIdByEmail(db, email),
    findPasswordHash: (userId) => users.findPasswordHash(db, userId),
    listUsersCreatedBetween: (query) => userLookups.listUsersCreatedBetween(db, query),
    findIdempotencyRecord: (keyId, key) => idempotency.findIdempotencyRecord(own, keyId, key),
    deleteIdempotencyRecordsBefore: (cutoff, only) =>
      idempotency.deleteIdempotencyRecordsBefore(own, cutoff, only),
    createApiKey: managedByOsticket('API keys'),
    createFirstApiKey: managedByOsticket('API keys'),
    listApiKeys: () => apiKeys.listApiKeys(db),
    revokeApiKey: managedByOsticket('API keys'),
    findApiKeyBySecret: (secret) => apiKeys.findApiKeyBySecret(db, secret),
    markApiKeyUsed: async () => {},
    countApiKeys: () => apiKeys.countApiKeys(db),
    ...(syslog ? { recordCall: (actor) => insertSyslogEntry(db, actor) } : {}),
    ping: () => assertTablesReadable(db, { syslog }),
    close: () => db.destroy(),
  };
}
