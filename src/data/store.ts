import type { DataAccess } from './entity.ts';

/**
 * An open database as operations and CLI commands use it: each entity's data functions through
 * `data(entity)` (src/data/<entity>/), built once per store for its layout (deskgate's own schema
 * on SQLite, PostgreSQL or MySQL; an osTicket database).
 */
export interface Store {
  readonly dialect: DialectName;
  /** The data functions of an entity the store was opened for (openStore's `entities`). */
  readonly data: DataAccess;
  /** Resolves when the database answers and the tables deskgate reads can be read. */
  ping(): Promise<void>;
  /**
   * What the admin should fix but the service runs without, one line each (osTicket mode: an
   * index deskgate's reads need, missing on a large table; decision 333). Empty elsewhere.
   */
  advisories(): Promise<string[]>;
  close(): Promise<void>;
}

export type DialectName = 'sqlite' | 'postgres' | 'mysql';

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

/**
 * ticket/close: the original's dept_id, topic_id, team_id or username is not the ticket's or the
 * agent's. Which one is not said (no oracle, SPEC §4a).
 */
export class CloseFieldsMismatchError extends StoreError {
  override name = 'CloseFieldsMismatchError';
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
