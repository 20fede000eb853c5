import type { Kysely } from 'kysely';
import type { User, UserRangeQuery } from '../../domain.ts';
import { formatTimestamp } from '../time.ts';
import type { OsticketDatabase } from './schema.ts';

/** osTicket's contact form: its rows, entries and values, as far as the phone look-up reads them. */
type ContactFormTables = {
  form: { id: number; type: string };
  form_field: { id: number; form_id: number; name: string };
  form_entry: { id: number; form_id: number; object_id: number | null; object_type: string };
  form_entry_values: { entry_id: number; field_id: number; value: string | null };
};

/**
 * The number in an osTicket phone value: the part before an extension (`5551234X12`), digits
 * only; 0 when there is none.
 */
function phoneNumber(value: string | null | undefined): number {
  const digits = (value ?? '').split(/x/i)[0]?.replace(/\D/g, '') ?? '';
  return digits === '' ? 0 : Number(digits.slice(0, 15));
}

/**
 * The phones of these users, from the contact form's entry values: osTicket's record of them
 * (`user__cdata` is only a cache it rebuilds from them, and deskgate is not granted to read it).
 */
async function findPhones(
  db: Kysely<OsticketDatabase>,
  userIds: readonly number[],
): Promise<Map<number, number>> {
  const phones = new Map<number, number>();
  if (userIds.length === 0) return phones;
  const forms = db.withTables<ContactFormTables>();
  const values = await forms
    .selectFrom('form_entry')
    .innerJoin('form', 'form.id', 'form_entry.form_id')
    .innerJoin('form_entry_values', 'form_entry_values.entry_id', 'form_entry.id')
    .innerJoin('form_field', 'form_field.id', 'form_entry_values.field_id')
    .select(['form_entry.object_id', 'form_entry_values.value'])
    .where('form_entry.object_type', '=', 'U')
    .where('form.type', '=', 'U')
    .where('form_field.name', '=', 'phone')
    .where('form_entry.object_id', 'in', userIds)
    .orderBy('form_entry.id')
    .execute();
  for (const row of values) {
    const phone = phoneNumber(row.value);
    if (row.object_id !== null && phone !== 0) phones.set(Number(row.object_id), phone);
  }
  return phones;
}

/**
 * Users created in [from, to], after `after` in (created, id) order, at most `limit`. `created`
 * is osTicket's datetime (the database's clock); the account's time zone comes from a subquery
 * because osTicket's user_account.user_id is not unique, and a join could list a user twice.
 */
export async function listUsersCreatedBetween(
  db: Kysely<OsticketDatabase>,
  { from, to, after, limit }: UserRangeQuery,
): Promise<User[]> {
  let query = db
    .selectFrom('user')
    .leftJoin('user_email', 'user_email.id', 'user.default_email_id')
    .select((eb) => [
      'user.id',
      'user.name',
      'user_email.address',
      eb
        .selectFrom('user_account')
        .select('user_account.timezone')
        .whereRef('user_account.user_id', '=', 'user.id')
        .orderBy('user_account.id')
        .limit(1)
        .as('timezone'),
      'user.org_id',
      'user.default_email_id',
      'user.status',
      'user.created',
      'user.updated',
    ])
    .where('user.created', '>=', from)
    .where('user.created', '<=', to);
  if (after) {
    query = query.where((eb) =>
      eb.or([
        eb('user.created', '>', after.created),
        eb.and([eb('user.created', '=', after.created), eb('user.id', '>', after.id)]),
      ]),
    );
  }
  const rows = await query.orderBy('user.created').orderBy('user.id').limit(limit).execute();
  const phones = await findPhones(
    db,
    rows.map((row) => Number(row.id)),
  );
  return rows.map((row) => ({
    id: Number(row.id),
    name: row.name,
    email: row.address ?? '',
    timezone: row.timezone ?? '',
    phone: phones.get(Number(row.id)) ?? 0,
    orgId: Number(row.org_id),
    defaultEmailId: Number(row.default_email_id),
    status: Number(row.status),
    created: formatTimestamp(row.created),
    updated: formatTimestamp(row.updated),
  }));
}
