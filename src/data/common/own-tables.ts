import type { Kysely } from 'kysely';
import type { OwnTables } from '../schema.ts';

/**
 * The same connection or transaction, typed down to deskgate's own tables, which every layout
 * has under these names. Kysely's types are invariant in the database type, hence the cast.
 */
export function ownTables<DB extends OwnTables>(db: Kysely<DB>): Kysely<OwnTables> {
  return db as unknown as Kysely<OwnTables>;
}
