import type {
  Actor,
  ApiKey,
  IdempotencyClaim,
  IdempotencyRecord,
  NewTopic,
  NewUser,
  Scope,
  Topic,
  User,
} from '../domain.ts';

/**
 * Everything operations and CLI commands need from storage. Each database layout (deskgate's
 * own schema on SQLite, PostgreSQL or MySQL; an osTicket database) implements it once.
 */
export interface Store {
  readonly dialect: DialectName;
  findTopicById(id: number): Promise<Topic | undefined>;
  listTopics(): Promise<Topic[]>;
  /** Inserts all topics in one transaction, or none. */
  insertTopics(topics: readonly NewTopic[]): Promise<Topic[]>;
  countTopics(): Promise<number>;

  /**
   * Writes the user, its email, its account, the audit entry and the idempotency record in one
   * transaction. Throws DuplicateEmailError when the address is taken (case-insensitively) and
   * IdempotencyConflictError when another request claimed the same idempotency key first.
   */
  createUser(user: NewUser, actor: Actor, idempotency?: IdempotencyClaim): Promise<number>;
  findUserById(id: number): Promise<User | undefined>;
  findUserIdByEmail(email: string): Promise<number | undefined>;
  findPasswordHash(userId: number): Promise<string | undefined>;
  findIdempotencyRecord(apiKeyId: number, key: string): Promise<IdempotencyRecord | undefined>;
  deleteIdempotencyRecordsBefore(cutoff: string): Promise<void>;

  createApiKey(input: NewApiKey): Promise<ApiKey>;
  /**
   * Creates the key only when the database has none, atomically across every instance sharing
   * the database; undefined when a key exists (or another instance created the first one).
   */
  createFirstApiKey(input: NewApiKey): Promise<ApiKey | undefined>;
  listApiKeys(): Promise<ApiKey[]>;
  /** Returns false when there is no such key. */
  revokeApiKey(id: number): Promise<boolean>;
  /** The active (not revoked) key whose secret this is. */
  findApiKeyBySecret(secret: string): Promise<ApiKey | undefined>;
  markApiKeyUsed(id: number): Promise<void>;
  countApiKeys(): Promise<number>;

  ping(): Promise<void>;
  close(): Promise<void>;
}

export type DialectName = 'sqlite' | 'postgres' | 'mysql';

export interface NewApiKey {
  name: string;
  keyHash: string;
  scopes: Scope[];
  allowIps: string[];
}

export class DuplicateEmailError extends Error {
  override name = 'DuplicateEmailError';
}

export class IdempotencyConflictError extends Error {
  override name = 'IdempotencyConflictError';
}

/** An expected failure of the data layer, worth one line to a person rather than a stack trace. */
export class StoreError extends Error {
  override name = 'StoreError';
}

/** What this database layout does not do (e.g. creating topics in an osTicket database). */
export class UnsupportedInModeError extends StoreError {
  override name = 'UnsupportedInModeError';
}

/** The database could not be reached when opening the store. */
export class DatabaseUnreachableError extends StoreError {
  override name = 'DatabaseUnreachableError';
}
