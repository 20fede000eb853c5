import { type Kysely, sql } from 'kysely';
import type { Actor, IdempotencyClaim, NewUser, User } from '../../domain.ts';
import { recordUserCreation } from '../common/record-user-creation.ts';
import type { Dialect, UniqueIndex } from '../dialects/dialect.ts';
import { formatTimestamp } from '../time.ts';
import type { OsticketDatabase } from './schema.ts';

/** osTicket's `UNIQUE KEY address (address)`, case-insensitive through the column's collation. */
const EMAIL_UNIQUE: UniqueIndex = { table: 'user_email', index: 'address' };
/** osTicket's user_account.status bit 1: the account is confirmed (registered). */
const ACCOUNT_CONFIRMED = 1;

/** Whether osTicket has materialised its contact form table (it does so lazily). */
async function hasContactTable(db: Kysely<OsticketDatabase>, prefix: string): Promise<boolean> {
  const { rows } = await sql<{ n: number }>`select count(*) as n from information_schema.tables
    where table_schema = database() and table_name = ${`${prefix}user__cdata`}`.execute(db);
  return Number(rows[0]?.n ?? 0) > 0;
}

export function createUser(
  db: Kysely<OsticketDatabase>,
  dialect: Dialect,
  prefix: string,
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
    insertRows: async (trx, at) => {
      const inserted = await trx
        .insertInto('user')
        .values({
          org_id: user.orgId,
          default_email_id: user.defaultEmailId,
          status: user.status,
          name: user.name,
          created: at,
          updated: at,
        })
        .executeTakeFirstOrThrow();
      const userId = Number(inserted.insertId);
      const email = await trx
        .insertInto('user_email')
        .values({ user_id: userId, flags: 0, address: user.email })
        .executeTakeFirstOrThrow();
      if (user.defaultEmailId === 0) {
        await trx
          .updateTable('user')
          .set({ default_email_id: Number(email.insertId) })
          .where('id', '=', userId)
          .execute();
      }
      await trx
        .insertInto('user_account')
        .values({
          user_id: userId,
          status: ACCOUNT_CONFIRMED,
          timezone: user.timezone,
          lang: null,
          username: null,
          passwd: user.passwordHash,
          backend: null,
          extra: null,
          registered: at,
        })
        .execute();
      if (await hasContactTable(trx, prefix)) {
        await trx
          .insertInto('user__cdata')
          .values({
            user_id: userId,
            email: user.email,
            name: user.name,
            phone: String(user.phone),
            notes: null,
          })
          .execute();
      }
      return userId;
    },
  });
}

export async function findUserIdByEmail(
  db: Kysely<OsticketDatabase>,
  email: string,
): Promise<number | undefined> {
  const row = await db
    .selectFrom('user_email')
    .select('user_id')
    .where('address', '=', email)
    .executeTakeFirst();
  return row && Number(row.user_id);
}

export async function findPasswordHash(
  db: Kysely<OsticketDatabase>,
  userId: number,
): Promise<string | undefined> {
  const row = await db
    .selectFrom('user_account')
    .select('passwd')
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return row?.passwd ?? undefined;
}

export async function findUserById(
  db: Kysely<OsticketDatabase>,
  prefix: string,
  id: number,
): Promise<User | undefined> {
  const row = await db
    .selectFrom('user')
    .leftJoin('user_account', 'user_account.user_id', 'user.id')
    .leftJoin('user_email', 'user_email.id', 'user.default_email_id')
    .select([
      'user.id',
      'user.name',
      'user_email.address',
      'user_account.timezone',
      'user.org_id',
      'user.default_email_id',
      'user.status',
      'user.created',
      'user.updated',
    ])
    .where('user.id', '=', id)
    .executeTakeFirst();
  if (!row) return undefined;
  let phone = 0;
  if (await hasContactTable(db, prefix)) {
    const contact = await db
      .selectFrom('user__cdata')
      .select('phone')
      .where('user_id', '=', id)
      .executeTakeFirst();
    phone = Number(contact?.phone?.replace(/\D/g, '') || 0);
  }
  return {
    id: Number(row.id),
    name: row.name,
    email: row.address ?? '',
    timezone: row.timezone ?? '',
    phone,
    orgId: Number(row.org_id),
    defaultEmailId: Number(row.default_email_id),
    status: Number(row.status),
    created: formatTimestamp(row.created),
    updated: formatTimestamp(row.updated),
  };
}
