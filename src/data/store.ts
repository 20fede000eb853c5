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
  UserRangeQuery,
} from '../domain.ts';
import type { TicketStore } from './tickets/ticket-store.ts';

/**
 * Everything operations and CLI commands need from storage. Each database layout (deskgate's
 * own schema on SQLite, PostgreSQL or MySQL; an osTicket database) implements it once.
 */
export interface Store {
  readonly dialect: DialectName;
  /** Tickets, tasks and agents (src/data/tickets/ticket-store.ts). */
  readonly tickets: TicketStore;
  findTopicById(id: number): Promise<Topic | undefined>;
  listTopics(): Promise<Topic[]>;
  /** Topics in `sort`, then `id` order; with `parentId`, only its children (0: top-level ones). */
  listTopicsInOrder(parentId?: number): Promise<Topic[]>;
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
  /** Users created in the range, in `created`, then `id` order (a stable order for paging). */
  listUsersCreatedBetween(query: UserRangeQuery): Promise<User[]>;
  findIdempotencyRecord(apiKeyId: number, key: string): Promise<IdempotencyRecord | undefined>;
  /** Forgets the records created before `cutoff`: all of them, or with `only`, that key's record. */
  deleteIdempotencyRecordsBefore(
    cutoff: string,
    only?: { apiKeyId: number; key: string },
  ): Promise<void>;

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

  /**
   * Records a successful call that wrote nothing, where the layout keeps a log of calls
   * (osTicket's `syslog` under DESKGATE_OSTICKET_SYSLOG). Writes record themselves, in their
   * own transaction.
   */
  recordCall?(actor: Actor): Promise<void>;

  /** Resolves when the database answers and the tables deskgate reads can be read. */
  ping(): Promise<void>;
  close(): Promise<void>;
}

export type DialectName = 'sqlite' | 'postgres' | 'mysql';

export interface NewApiKey {
  name: string;
  keyHash: string;
  scopes: Scope[];
  allowIps: string[];
  /** May read internal notes (`keys create --notes`). Default false. */
  notes?: boolean;
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

/** A value the database cannot take (e.g. a character its columns' charset cannot store). */
export class RejectedValueError extends StoreError {
  override name = 'RejectedValueError';
  /** The parameter at fault, e.g. `name`. */
  readonly field: string;

  constructor(field: string, message: string) {
    super(message);
    this.field = field;
  }
}
