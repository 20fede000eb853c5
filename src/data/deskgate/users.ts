import type { Kysely, Transaction } from 'kysely';
import type { Actor, IdempotencyClaim, NewUser, User } from '../../domain.ts';
import { recordUserCreation } from '../common/record-user-creation.ts';
import type { Dialect, UniqueIndex } from '../dialects/dialect.ts';
import type { Database } from '../schema.ts';
import { formatTimestamp } from '../time.ts';
import { insertReturningId } from './insert-returning-id.ts';

/** The unique index holds the lower-cased address, so uniqueness ignores case. */
export function emailKey(address: string): string {
  return address.toLowerCase();
}

export const EMAIL_UNIQUE: UniqueIndex = {
  table: 'user_emails',
  index: 'user_emails_address_key_unique',
};

async function insertUserRows(
  trx: Transaction<Database>,
  dialect: Dialect,
  user: NewUser,
  at: string,
): Promise<number> {
  const userId = await insertReturningId(
    trx.insertInto('users').values({
      org_id: user.orgId,
      default_email_id: user.defaultEmailId,
      status: user.status,
      name: user.name,
      phone: user.phone,
      created_at: at,
      updated_at: at,
    }),
    dialect,
  );
  const emailId = await insertReturningId(
    trx
      .insertInto('user_emails')
      .values({ user_id: userId, address: user.email, address_key: emailKey(user.email) }),
    dialect,
  );
  if (user.defaultEmailId === 0) {
    await trx
      .updateTable('users')
      .set({ default_email_id: emailId })
      .where('id', '=', userId)
      .execute();
  }
  await trx
    .insertInto('user_accounts')
    .values({
      user_id: userId,
      timezone: user.timezone,
      password_hash: user.passwordHash,
      registered_at: at,
    })
    .execute();
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
    insertRows: (trx, at) => insertUserRows(trx, dialect, user, at),
  });
}

export async function findUserIdByEmail(
  db: Kysely<Database>,
  email: string,
): Promise<number | undefined> {
  const row = await db
    .selectFrom('user_emails')
    .select('user_id')
    .where('address_key', '=', emailKey(email))
    .executeTakeFirst();
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
