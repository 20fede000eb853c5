import type { Generated, Kysely } from 'kysely';
import { prepareInsertReturningId } from '../common/insert-returning-id.ts';
import { keysetPage, pageByTime } from '../common/keyset.ts';
import type { OwnTimestamps } from '../common/own-timestamps.ts';
import { type Param, prepareQuery } from '../common/prepared-query.ts';
import type { Dialect, UniqueIndex } from '../dialects/dialect.ts';
import { type OwnHandle, tablesOf } from '../entity.ts';
import { appendEvents } from '../events/events.ts';
import { eventActor } from '../events/write-origin.ts';
import { formatTimestamp } from '../time.ts';
import { DuplicateEmailError } from './duplicate-email-error.ts';
import type { NewUser, User, UserRangeQuery } from './user.ts';
import type { UserData } from './users.ts';

/** Timestamps are UTC `YYYY-MM-DD HH:MM:SS` text (see migrations/column-types.ts). */
export interface UserTable extends OwnTimestamps {
  id: Generated<number>;
  org_id: number;
  default_email_id: number;
  status: number;
  name: string;
  /** Digits as typed; '' for none (migration 007 made it text). */
  phone: string;
}

export interface UserEmailTable {
  id: Generated<number>;
  user_id: number;
  address: string;
  /** Lower-cased address: its unique index makes email uniqueness case-insensitive. */
  address_key: string;
}

export interface UserAccountTable {
  id: Generated<number>;
  user_id: number;
  timezone: string;
  password_hash: string;
  registered_at: string;
}

export interface OwnUserTables {
  users: UserTable;
  user_emails: UserEmailTable;
  user_accounts: UserAccountTable;
}

/** The unique index holds the lower-cased address, so uniqueness ignores case. */
export function emailKey(address: string): string {
  return address.toLowerCase();
}

export const EMAIL_UNIQUE: UniqueIndex = {
  table: 'user_emails',
  index: 'user_emails_address_key_unique',
};

type UserValues = NewUser & { at: string };

const insertUserRow = prepareInsertReturningId(
  (db: Kysely<OwnUserTables>, param: Param<UserValues>) =>
    db.insertInto('users').values({
      org_id: param('orgId'),
      default_email_id: param('defaultEmailId'),
      status: param('status'),
      name: param('name'),
      phone: param('phone'),
      created_at: param('at'),
      updated_at: param('at'),
    }),
);

const insertEmail = prepareInsertReturningId(
  (
    db: Kysely<OwnUserTables>,
    param: Param<{ userId: number; address: string; addressKey: string }>,
  ) =>
    db.insertInto('user_emails').values({
      user_id: param('userId'),
      address: param('address'),
      address_key: param('addressKey'),
    }),
);

const setDefaultEmail = prepareQuery(
  (db: Kysely<OwnUserTables>, param: Param<{ userId: number; emailId: number }>) =>
    db
      .updateTable('users')
      .set({ default_email_id: param('emailId') })
      .where('id', '=', param('userId')),
);

const insertAccount = prepareQuery(
  (db: Kysely<OwnUserTables>, param: Param<UserValues & { userId: number }>) =>
    db.insertInto('user_accounts').values({
      user_id: param('userId'),
      timezone: param('timezone'),
      password_hash: param('passwordHash'),
      registered_at: param('at'),
    }),
);

/** The user, its address and its account, in the write's transaction; returns the new id. */
export async function insertUser(
  trx: Kysely<OwnUserTables>,
  dialect: Dialect,
  user: NewUser,
  at: string,
): Promise<number> {
  try {
    const userId = await insertUserRow(trx, { ...user, at });
    const emailId = await insertEmail(trx, {
      userId,
      address: user.email,
      addressKey: emailKey(user.email),
    });
    if (user.defaultEmailId === 0) await setDefaultEmail(trx, { userId, emailId });
    await insertAccount(trx, { ...user, at, userId });
    await appendEvents(trx, dialect.name, [
      { type: 'user.created', occurredAt: at, user: { id: userId }, actor: eventActor() },
    ]);
    return userId;
  } catch (error) {
    if (dialect.isUniqueViolation(error, EMAIL_UNIQUE))
      throw new DuplicateEmailError(user.email, { cause: error });
    throw error;
  }
}

const selectUserIdByEmail = prepareQuery(
  (db: Kysely<OwnUserTables>, param: Param<{ addressKey: string }>) =>
    db.selectFrom('user_emails').select('user_id').where('address_key', '=', param('addressKey')),
);

export async function findUserIdByEmail(
  db: Kysely<OwnUserTables>,
  email: string,
): Promise<number | undefined> {
  const [row] = (await selectUserIdByEmail(db, { addressKey: emailKey(email) })).rows;
  return row && Number(row.user_id);
}

/** The columns of `users` the User object needs. */
const USER_COLUMNS = [
  'id',
  'name',
  'phone',
  'org_id',
  'default_email_id',
  'status',
  'created_at',
  'updated_at',
] as const;

/** Users with their default address and account, in the columns the User object needs. */
export function selectUsers(db: Kysely<OwnUserTables>) {
  return db
    .selectFrom('users')
    .innerJoin('user_accounts', 'user_accounts.user_id', 'users.id')
    .leftJoin('user_emails', 'user_emails.id', 'users.default_email_id')
    .select(USER_COLUMNS.map((column) => `users.${column}` as const))
    .select(['user_emails.address', 'user_accounts.timezone']);
}

type UserRow = Awaited<ReturnType<ReturnType<typeof selectUsers>['execute']>>[number];

/** `email` stands in for a missing default address. */
export function toUser(row: UserRow, email = row.address ?? ''): User {
  return {
    id: Number(row.id),
    name: row.name,
    email,
    timezone: row.timezone,
    phone: row.phone,
    orgId: Number(row.org_id),
    defaultEmailId: Number(row.default_email_id),
    status: Number(row.status),
    created: formatTimestamp(row.created_at),
    updated: formatTimestamp(row.updated_at),
  };
}

export async function findUserById(
  db: Kysely<OwnUserTables>,
  id: number,
): Promise<User | undefined> {
  const row = await selectUsers(db).where('users.id', '=', id).executeTakeFirst();
  if (!row) return undefined;
  const email =
    row.address ??
    (
      await db
        .selectFrom('user_emails')
        .select('address')
        .where('user_id', '=', id)
        .orderBy('id')
        .executeTakeFirst()
    )?.address ??
    '';
  return toUser(row, email);
}

export async function findPasswordHash(
  db: Kysely<OwnUserTables>,
  userId: number,
): Promise<string | undefined> {
  const row = await db
    .selectFrom('user_accounts')
    .select('password_hash')
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return row?.password_hash;
}

/** The users list's order: (created, id). */
const USERS_BY_CREATED = { key: 'users.created_at', id: 'users.id' };

/**
 * Users created in [from, to], after `after` in (created, id) order, at most `limit`. Timestamps
 * are UTC text of one shape on deskgate's schema, so comparing them as text orders them in time.
 */
export async function listUsersCreatedBetween(
  db: Kysely<OwnUserTables>,
  query: UserRangeQuery,
): Promise<User[]> {
  const rows = await keysetPage(selectUsers(db), USERS_BY_CREATED, pageByTime(query)).execute();
  return rows.map((row) => toUser(row));
}

/** The user's account and addresses, then the user (SQLite may not enforce the cascade). */
export async function deleteUser(trx: Kysely<OwnUserTables>, id: number): Promise<boolean> {
  await trx.deleteFrom('user_accounts').where('user_id', '=', id).execute();
  await trx.deleteFrom('user_emails').where('user_id', '=', id).execute();
  const deleted = await trx.deleteFrom('users').where('id', '=', id).executeTakeFirst();
  return Number(deleted.numDeletedRows) > 0;
}

export function makeOwnUsers(handle: OwnHandle): UserData {
  const db = tablesOf<OwnUserTables>(handle.db);
  return {
    insertUser: (trx, user, at) =>
      insertUser(tablesOf<OwnUserTables>(trx), handle.dialect, user, at),
    findUserById: (id) => findUserById(db, id),
    findUserIdByEmail: (email) => findUserIdByEmail(db, email),
    findPasswordHash: (userId) => findPasswordHash(db, userId),
    listUsersCreatedBetween: (query) => listUsersCreatedBetween(db, query),
    deleteUser: (trx, id) => deleteUser(tablesOf<OwnUserTables>(trx), id),
  };
}
