import type { Kysely, Transaction } from 'kysely';
import type { Actor, IdempotencyClaim, NewUser, User } from '../../domain.ts';
import { type Param, prepareQuery } from '../common/prepared-query.ts';
import { recordUserCreation } from '../common/record-user-creation.ts';
import type { Dialect, UniqueIndex } from '../dialects/dialect.ts';
import type { Database } from '../schema.ts';
import { formatTimestamp } from '../time.ts';
import { prepareInsertReturningId } from './insert-returning-id.ts';

/** The unique index holds the lower-cased address, so uniqueness ignores case. */
export function emailKey(address: string): string {
  return address.toLowerCase();
}

export const EMAIL_UNIQUE: UniqueIndex = {
  table: 'user_emails',
  index: 'user_emails_address_key_unique',
};

type UserValues = NewUser & { at: string };

const insertUser = prepareInsertReturningId((db, param: Param<UserValues>) =>
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
  (db, param: Param<{ userId: number; address: string; addressKey: string }>) =>
    db.insertInto('user_emails').values({
      user_id: param('userId'),
      address: param('address'),
      address_key: param('addressKey'),
    }),
);

const setDefaultEmail = prepareQuery(
  (db: Kysely<Database>, param: Param<{ userId: number; emailId: number }>) =>
    db
      .updateTable('users')
      .set({ default_email_id: param('emailId') })
      .where('id', '=', param('userId')),
);

const insertAccount = prepareQuery(
  (db: Kysely<Database>, param: Param<UserValues & { userId: number }>) =>
    db.insertInto('user_accounts').values({
      user_id: param('userId'),
      timezone: param('timezone'),
      password_hash: param('passwordHash'),
      registered_at: param('at'),
    }),
);

async function insertUserRows(
  trx: Transaction<Database>,
  user: NewUser,
  at: string,
): Promise<number> {
  const userId = await insertUser(trx, { ...user, at });
  const emailId = await insertEmail(trx, {
    userId,
    address: user.email,
    addressKey: emailKey(user.email),
  });
  if (user.defaultEmailId === 0) await setDefaultEmail(trx, { userId, emailId });
  await insertAccount(trx, { ...user, at, userId });
  return userId;
}

export function createUser(
  db: Kysely<Database>,
  dialect: Dialect,
  user: NewUser,
  actor: Actor,
  idempotency?: IdempotencyClaim,
): Promise<number> {
  return recordUserCreation({
    db,
    dialect,
    emailUnique: EMAIL_UNIQUE,
    email: user.email,
    actor,
    idempotency,
    insertRows: (trx, at) => insertUserRows(trx, user, at),
  });
}

const selectUserIdByEmail = prepareQuery(
  (db: Kysely<Database>, param: Param<{ addressKey: string }>) =>
    db.selectFrom('user_emails').select('user_id').where('address_key', '=', param('addressKey')),
);

export async function findUserIdByEmail(
  db: Kysely<Database>,
  email: string,
): Promise<number | undefined> {
  const [row] = (await selectUserIdByEmail(db, { addressKey: emailKey(email) })).rows;
  return row && Number(row.user_id);
}

/** Users with their default address and account, in the columns the User object needs. */
export function selectUsers(db: Kysely<Database>) {
  return db
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
    ]);
}

type UserRow = Awaited<ReturnType<ReturnType<typeof selectUsers>['execute']>>[number];

/** `email` stands in for a missing default address. */
export function toUser(row: UserRow, email = row.address ?? ''): User {
  return {
    id: Number(row.id),
    name: row.name,
    email,
    timezone: row.timezone,
    phone: Number(row.phone),
    orgId: Number(row.org_id),
    defaultEmailId: Number(row.default_email_id),
    status: Number(row.status),
    created: formatTimestamp(row.created_at),
    updated: formatTimestamp(row.updated_at),
  };
}

export async function findUserById(db: Kysely<Database>, id: number): Promise<User | undefined> {
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
  db: Kysely<Database>,
  userId: number,
): Promise<string | undefined> {
  const row = await db
    .selectFrom('user_accounts')
    .select('password_hash')
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return row?.password_hash;
}
