import type { Generated, Kysely } from 'kysely';
import { keysetPage, pageByTime } from '../common/keyset.ts';
import { type OsticketHandle, tablesOf } from '../entity.ts';
import { managedByOsticket } from '../osticket/managed-by-osticket.ts';
import type { OsticketTableRequirement } from '../osticket/osticket-requirements.ts';
import { formatTimestamp } from '../time.ts';
import { insertUser } from './osticket-insert-user.ts';
import type { User, UserRangeQuery } from './user.ts';
import type { UserData } from './users.ts';

/**
 * osTicket 1.18.1's user tables (../shared/osticket/schema-1.18.1.sql) by their names without
 * the prefix, only the columns deskgate reads or writes. DATETIME columns come back as the text
 * the database holds (the pool sets `dateStrings`).
 */
export interface OstUserTable {
  id: Generated<number>;
  org_id: number;
  default_email_id: number;
  status: number;
  name: string;
  created: string;
  updated: string;
}

export interface OstUserEmailTable {
  id: Generated<number>;
  user_id: number;
  flags: number;
  address: string;
}

/** `user_id` is not unique in osTicket's schema: a user's account is its first (lowest id). */
export interface OstUserAccountTable {
  id: Generated<number>;
  user_id: number;
  status: number;
  timezone: string | null;
  lang: string | null;
  username: string | null;
  passwd: string | null;
  backend: string | null;
  extra: string | null;
  registered: string | null;
}

/** Present once osTicket has materialised its contact form. */
export interface OstUserCdataTable {
  user_id: number;
  email: string | null;
  name: string | null;
  phone: string | null;
  notes: string | null;
}

/** Custom forms; the user contact form is the one of type `U`. */
export interface OstFormTable {
  id: Generated<number>;
  type: string;
}

export interface OstFormFieldTable {
  id: Generated<number>;
  form_id: number;
  flags: number | null;
  type: string;
  name: string;
  sort: number;
}

/** One filled-in form, here the contact form of one user (`object_type` `U`). */
export interface OstFormEntryTable {
  id: Generated<number>;
  form_id: number;
  object_id: number | null;
  object_type: string;
  sort: number;
  extra: string | null;
  created: string;
  updated: string;
}

export interface OstFormEntryValuesTable {
  entry_id: number;
  field_id: number;
  value: string | null;
  value_id: number | null;
}

/** osTicket's full-text index for staff search (`ost__search`). */
export interface OstSearchTable {
  object_type: string;
  object_id: number;
  title: string | null;
  content: string | null;
}

export interface OstOrganizationTable {
  id: Generated<number>;
}

export interface OsticketUserTables {
  user: OstUserTable;
  user_email: OstUserEmailTable;
  user_account: OstUserAccountTable;
  user__cdata: OstUserCdataTable;
  form: OstFormTable;
  form_field: OstFormFieldTable;
  form_entry: OstFormEntryTable;
  form_entry_values: OstFormEntryValuesTable;
  _search: OstSearchTable;
  organization: OstOrganizationTable;
}

/** The tables, columns and grants the users entity needs in an osTicket database. */
export const OSTICKET_USER_TABLES: readonly OsticketTableRequirement[] = [
  {
    table: 'user',
    privileges: ['SELECT', 'INSERT', 'UPDATE'],
    columns: ['id', 'org_id', 'default_email_id', 'status', 'name', 'created', 'updated'],
  },
  {
    table: 'user_email',
    privileges: ['SELECT', 'INSERT'],
    columns: ['id', 'user_id', 'flags', 'address'],
  },
  {
    table: 'user_account',
    privileges: ['SELECT', 'INSERT'],
    columns: ['id', 'user_id', 'status', 'timezone', 'passwd', 'registered'],
  },
  { table: 'form', privileges: ['SELECT'], columns: ['id', 'type'] },
  {
    table: 'form_field',
    privileges: ['SELECT'],
    columns: ['id', 'form_id', 'flags', 'type', 'name', 'sort'],
  },
  {
    table: 'form_entry',
    privileges: ['SELECT', 'INSERT'],
    columns: ['id', 'form_id', 'object_id', 'object_type', 'sort'],
  },
  {
    table: 'form_entry_values',
    privileges: ['SELECT', 'INSERT'],
    columns: ['entry_id', 'field_id', 'value'],
  },
  { table: '_search', privileges: ['INSERT', 'DELETE'] },
  {
    table: 'user__cdata',
    privileges: ['CREATE', 'SELECT', 'INSERT'],
    optional: true,
    note: 'CREATE only lets the server accept the grant before osTicket has created this table; deskgate never creates it',
  },
  { table: 'organization', privileges: ['SELECT'], columns: ['id'] },
];

/** MySQL's "Table … doesn't exist" and "Unknown column": osTicket has no `user__cdata` (yet). */
const ER_BAD_FIELD_ERROR = 1054;
const ER_NO_SUCH_TABLE = 1146;

/**
 * The phones of these users, as stored, unchanged. First as osTicket's User::getPhoneNumber
 * reads them: the user's form entries (`object_type` `U`, whatever their form) in `sort` order,
 * and the first holding an answer to a field named exactly `phone` gives the phone, even an
 * empty one. A user with no such answer (the PHP service wrote only `user__cdata`) has the phone
 * of its `user__cdata` row, when osTicket has created that table.
 */
async function findPhones(
  db: Kysely<OsticketUserTables>,
  userIds: readonly number[],
): Promise<Map<number, string>> {
  const phones = new Map<number, string>();
  if (userIds.length === 0) return phones;
  const answers = await db
    .selectFrom('form_entry')
    .innerJoin('form_entry_values', 'form_entry_values.entry_id', 'form_entry.id')
    .innerJoin('form_field', 'form_field.id', 'form_entry_values.field_id')
    .select(['form_entry.object_id', 'form_field.name', 'form_entry_values.value'])
    .where('form_entry.object_type', '=', 'U')
    .where('form_entry.object_id', 'in', userIds)
    // The column's collation ignores case; osTicket compares the name exactly (below).
    .where('form_field.name', '=', 'phone')
    .orderBy('form_entry.sort')
    .orderBy('form_entry.id')
    .execute();
  for (const row of answers) {
    const userId = Number(row.object_id);
    if (row.name === 'phone' && !phones.has(userId)) phones.set(userId, row.value ?? '');
  }
  const unanswered = userIds.filter((id) => !phones.has(id));
  if (unanswered.length === 0) return phones;
  try {
    const cached = await db
      .selectFrom('user__cdata')
      .select(['user_id', 'phone'])
      .where('user_id', 'in', unanswered)
      .execute();
    for (const row of cached) phones.set(Number(row.user_id), row.phone ?? '');
  } catch (error) {
    const errno = (error as { errno?: unknown } | null)?.errno;
    if (errno !== ER_NO_SUCH_TABLE && errno !== ER_BAD_FIELD_ERROR) throw error;
  }
  return phones;
}

/** Users with their default address and the time zone of their first account. */
function selectUsers(db: Kysely<OsticketUserTables>) {
  return db
    .selectFrom('user')
    .leftJoin('user_email', 'user_email.id', 'user.default_email_id')
    .select((eb) => [
      'user.id',
      'user.name',
      'user_email.address',
      // A subquery, not a join: user_account.user_id is not unique, a join could list a user twice.
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
    ]);
}

type UserRow = Awaited<ReturnType<ReturnType<typeof selectUsers>['execute']>>[number];

async function toUsers(db: Kysely<OsticketUserTables>, rows: readonly UserRow[]): Promise<User[]> {
  const phones = await findPhones(
    db,
    rows.map((row) => Number(row.id)),
  );
  return rows.map((row) => ({
    id: Number(row.id),
    name: row.name,
    email: row.address ?? '',
    timezone: row.timezone ?? '',
    phone: phones.get(Number(row.id)) ?? '',
    orgId: Number(row.org_id),
    defaultEmailId: Number(row.default_email_id),
    status: Number(row.status),
    // DATETIME text as osTicket stored it (its database's clock), never shifted.
    created: formatTimestamp(row.created),
    updated: formatTimestamp(row.updated),
  }));
}

export async function findUserById(
  db: Kysely<OsticketUserTables>,
  id: number,
): Promise<User | undefined> {
  const rows = await selectUsers(db).where('user.id', '=', id).execute();
  return (await toUsers(db, rows))[0];
}

/** The users list's order: (created, id). */
const USERS_BY_CREATED = { key: 'user.created', id: 'user.id' };

/** Users created in [from, to] (osTicket's datetime), after `after` in (created, id) order. */
export async function listUsersCreatedBetween(
  db: Kysely<OsticketUserTables>,
  query: UserRangeQuery,
): Promise<User[]> {
  const rows = await keysetPage(selectUsers(db), USERS_BY_CREATED, pageByTime(query)).execute();
  return toUsers(db, rows);
}

export async function findUserIdByEmail(
  db: Kysely<OsticketUserTables>,
  email: string,
): Promise<number | undefined> {
  const row = await db
    .selectFrom('user_email')
    .select('user_id')
    .where('address', '=', email)
    .executeTakeFirst();
  return row && Number(row.user_id);
}

/** The password of the user's first account, as with its time zone. */
export async function findPasswordHash(
  db: Kysely<OsticketUserTables>,
  userId: number,
): Promise<string | undefined> {
  const row = await db
    .selectFrom('user_account')
    .select('passwd')
    .where('user_id', '=', userId)
    .orderBy('id')
    .limit(1)
    .executeTakeFirst();
  return row?.passwd ?? undefined;
}

export function makeOsticketUsers(handle: OsticketHandle): UserData {
  const db = tablesOf<OsticketUserTables>(handle.db);
  return {
    insertUser: (trx, user) =>
      insertUser(db, tablesOf<OsticketUserTables>(trx), handle.dialect, handle.prefix, user),
    findUserById: (id) => findUserById(db, id),
    findUserIdByEmail: (email) => findUserIdByEmail(db, email),
    findPasswordHash: (userId) => findPasswordHash(db, userId),
    listUsersCreatedBetween: (query) => listUsersCreatedBetween(db, query),
    // osTicket's own deletion also handles tickets, organisations, forms and its search index.
    deleteUser: managedByOsticket('users', 'staff panel (Users)'),
  };
}
