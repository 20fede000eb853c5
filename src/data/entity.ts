import type { Kysely, Transaction } from 'kysely';
import type { Reader } from './common/prepared-query.ts';
import type { Dialect } from './dialects/dialect.ts';
import type { OsticketTableRequirement } from './osticket/osticket-requirements.ts';

/** What an entity's own-schema version is built from: deskgate's own tables on any database. */
export interface OwnHandle {
  readonly layout: 'own';
  /** The database, typed without tables: an entity names its own with `tablesOf`. */
  readonly db: Kysely<object>;
  readonly dialect: Dialect;
  /** Where prepared reads run (SQLite's read connection where there is one). */
  readonly reader: Reader<object>;
}

/** What an entity's osTicket version is built from: an osTicket database, prefix applied. */
export interface OsticketHandle {
  readonly layout: 'osticket';
  /** Queries name tables without osTicket's prefix; the TablePrefixPlugin adds it. */
  readonly db: Kysely<object>;
  readonly dialect: Dialect;
  readonly reader: Reader<object>;
  /** osTicket's table prefix (information_schema queries need the real names). */
  readonly prefix: string;
  /** DESKGATE_OSTICKET_SYSLOG: log each successful call in osTicket's `syslog`. */
  readonly syslog: boolean;
  /** DESKGATE_OSTICKET_ADMIN_WRITES: deskgate's own `admin` keys are in use (decision 270). */
  readonly adminWrites: boolean;
}

export type DataHandle = OwnHandle | OsticketHandle;

/** The transaction a write runs in (Writes.recordWrite), typed down by the entity that writes. */
export type WriteTransaction = Transaction<object>;

/**
 * One kind of thing deskgate stores (topics, users, API keys, …): its data functions (`Api`) over
 * deskgate's own schema and over an osTicket database, and what it needs of osTicket's tables.
 */
export interface Entity<Api> {
  readonly name: string;
  readonly own: (handle: OwnHandle) => Api;
  readonly osticket: (handle: OsticketHandle) => Api;
  /** The osTicket tables, columns and grants this entity reads and writes. */
  readonly osticketRequires: OsticketRequirements;
}

/** An entity of any API, as lists of them hold it. */
export type AnyEntity = Entity<unknown>;

export interface OsticketRequirements {
  /** A comment for the grants block in the docs, e.g. `user/add writes a user as osTicket does`. */
  readonly comment: string;
  readonly tables: readonly OsticketTableRequirement[];
}

/** The data functions of `entity` on one database: built once per opened store (Store.data). */
export type DataAccess = <Api>(entity: Entity<Api>) => Api;

/**
 * Declares an entity. A handler reaches it with `context.data(entity)`, a command with
 * `store.data(entity)`; the operations that name it in `uses` make its osTicket requirements
 * part of the start-up check, /readyz and the documented grants.
 */
export function defineEntity<Api>(definition: Entity<Api>): Entity<Api> {
  return Object.freeze(definition);
}

/**
 * The same connection or transaction typed with an entity's tables. Each entity names only its
 * own tables; Kysely's types are invariant in the database type, hence the cast (no new object,
 * so prepared queries keep their compiled form).
 */
export function tablesOf<Tables>(db: Kysely<object>): Kysely<Tables> {
  return db as unknown as Kysely<Tables>;
}

/** `reader` typed with an entity's tables (see tablesOf). */
export function readerOf<Tables>(reader: Reader<object>): Reader<Tables> {
  return reader as unknown as Reader<Tables>;
}
