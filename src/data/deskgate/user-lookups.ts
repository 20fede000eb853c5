import type { Kysely } from 'kysely';
import type { User, UserRangeQuery } from '../../domain.ts';
import type { Database } from '../schema.ts';
import { selectUsers, toUser } from './users.ts';

/**
 * Users created in [from, to], after `after` in (created, id) order, at most `limit`. Timestamps
 * are UTC text of one shape on deskgate's schema, so comparing them as text orders them in time.
 */
export async function listUsersCreatedBetween(
  db: Kysely<Database>,
  { from, to, after, limit }: UserRangeQuery,
): Promise<User[]> {
  let query = selectUsers(db)
    .where('users.created_at', '>=', from)
    .where('users.created_at', '<=', to);
  if (after) {
    query = query.where((eb) =>
      eb.or([
        eb('users.created_at', '>', after.created),
        eb.and([eb('users.created_at', '=', after.created), eb('users.id', '>', after.id)]),
      ]),
    );
  }
  const rows = await query.orderBy('users.created_at').orderBy('users.id').limit(limit).execute();
  return rows.map((row) => toUser(row));
}
