import type { Kysely } from 'kysely';
import type { User, UserRangeQuery } from '../../domain.ts';
import type { Database } from '../schema.ts';
import { formatTimestamp } from '../time.ts';

/**
 * Users created in [from, to], after `after` in (created, id) order, at most `limit`. Timestamps
 * are UTC text of one shape on deskgate's schema, so comparing them as text orders them in time.
 */
export async function listUsersCreatedBetween(
  db: Kysely<Database>,
  { from, to, after, limit }: UserRangeQuery,
): Promise<User[]> {
  let query = db
    .selectFrom('users')
    .innerJoin('user_accounts', 'user_accounts.user_id', 'users.id')
    .leftJoin('user_emails', 'user_emails.id', 'users.default_email_id')
    .select([
      'users.id',
      'users.name',
      'user_emails.address',
      'user_accounts.timezone',
      'users.phone',
      'users.org_id',
      'users.default_email_id',
      'users.status',
      'users.created_at',
      'users.updated_at',
    ])
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
  return rows.map((row) => ({
    id: Number(row.id),
    name: row.name,
    email: row.address ?? '',
    timezone: row.timezone,
    phone: Number(row.phone),
    orgId: Number(row.org_id),
    defaultEmailId: Number(row.default_email_id),
    status: Number(row.status),
    created: formatTimestamp(row.created_at),
    updated: formatTimestamp(row.updated_at),
  }));
}
