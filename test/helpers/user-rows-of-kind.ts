import {
  countRows,
  findUserIdsByEmail,
  readStoredUser,
  withDatabase,
} from '../support/database-rows.ts';
import type { KindDatabase } from './each-database.ts';

/** One user's stored rows on any kind of database, in the same shape on each. */
export interface UserRowsOfKind {
  user:
    | {
        name: string;
        phone: string;
        orgId: number;
        status: number;
        defaultEmailId: number;
        created: string;
        updated: string;
      }
    | undefined;
  emails: { id: number; address: string }[];
  accounts: { timezone: string; passwordHash: string; registered: string }[];
}

type Row = Record<string, unknown>;

/**
 * The rows of user `id` (describeEachDatabaseKind): deskgate's users, user_emails and
 * user_accounts, or osTicket's user, user_email and user_account, the phone from user__cdata.
 */
export async function readUserRowsOfKind(
  database: KindDatabase,
  id: number,
): Promise<UserRowsOfKind> {
  const { osticket } = database;
  if (!osticket) {
    const stored = await readStoredUser(database.url, id);
    const { user } = stored;
    return {
      user: user && {
        name: user.name,
        phone: String(user.phone),
        orgId: Number(user.org_id),
        status: Number(user.status),
        defaultEmailId: Number(user.default_email_id),
        created: String(user.created_at),
        updated: String(user.updated_at),
      },
      emails: stored.emails.map((e) => ({ id: Number(e.id), address: e.address })),
      accounts: stored.accounts.map((a) => ({
        timezone: String(a.timezone),
        passwordHash: String(a.password_hash),
        registered: String(a.registered_at),
      })),
    };
  }
  const p = osticket.prefix;
  const [user] = await osticket.query<Row>(
    `SELECT u.*, c.phone FROM \`${p}user\` u LEFT JOIN \`${p}user__cdata\` c ON c.user_id = u.id
     WHERE u.id = ?`,
    [id],
  );
  const emails = await osticket.query<Row>(
    `SELECT id, address FROM \`${p}user_email\` WHERE user_id = ? ORDER BY id`,
    [id],
  );
  const accounts = await osticket.query<Row>(
    `SELECT timezone, passwd, registered FROM \`${p}user_account\` WHERE user_id = ? ORDER BY id`,
    [id],
  );
  return {
    user: user && {
      name: String(user.name),
      phone: String(user.phone ?? ''),
      orgId: Number(user.org_id),
      status: Number(user.status),
      defaultEmailId: Number(user.default_email_id),
      created: String(user.created),
      updated: String(user.updated),
    },
    emails: emails.map((e) => ({ id: Number(e.id), address: String(e.address) })),
    accounts: accounts.map((a) => ({
      timezone: String(a.timezone),
      passwordHash: String(a.passwd),
      registered: String(a.registered),
    })),
  };
}

/** Ids of the users holding `address`, compared case-insensitively, on any kind of database. */
export async function findUserIdsOfKind(
  database: KindDatabase,
  address: string,
): Promise<number[]> {
  const { osticket } = database;
  if (!osticket) return findUserIdsByEmail(database.url, address);
  const rows = await osticket.query<{ user_id: number }>(
    `SELECT user_id FROM \`${osticket.prefix}user_email\` WHERE LOWER(address) = ? ORDER BY user_id`,
    [address.trim().toLowerCase()],
  );
  return rows.map((r) => Number(r.user_id));
}

/**
 * The tables osTicket mode's feed reader writes on its own schedule (every second, a few seconds
 * after a user is committed): a user/add never writes them, and they change between two counts.
 */
const FEED_READER_TABLES = ['deskgate_events', 'deskgate_event_positions'];

/**
 * Rows per table a user/add may write, to show that a refused one wrote nothing: deskgate's user
 * tables, audit log and stored answers; in osTicket mode every table of the database (but the
 * feed reader's, FEED_READER_TABLES).
 */
export async function userRowCountsOfKind(database: KindDatabase): Promise<Record<string, number>> {
  const counts = await rowCountsOfKind(database);
  for (const table of FEED_READER_TABLES) delete counts[table];
  return counts;
}

/** userRowCountsOfKind with, in osTicket mode, every table of the database. */
async function rowCountsOfKind(database: KindDatabase): Promise<Record<string, number>> {
  const { osticket } = database;
  if (!osticket) {
    const tables = [
      'users',
      'user_emails',
      'user_accounts',
      'audit_log',
      'idempotency_keys',
    ] as const;
    const counts = await countRows(database.url, tables);
    return Object.fromEntries(tables.map((table, i) => [table, counts[i] ?? 0]));
  }
  const tables = await osticket.query<{ name: string }>(
    `SELECT table_name AS name FROM information_schema.tables
     WHERE table_schema = DATABASE() AND table_type = 'BASE TABLE' ORDER BY 1`,
  );
  const counts: Record<string, number> = {};
  for (const { name } of tables) {
    const [row] = await osticket.query<{ n: number }>(`SELECT COUNT(*) AS n FROM \`${name}\``);
    counts[name] = Number(row?.n);
  }
  return counts;
}

/** The audit entries naming `targetId`: deskgate's audit_log, or deskgate_audit_log beside osTicket's tables. */
export async function readAuditOfKind(database: KindDatabase, targetId: number): Promise<Row[]> {
  const { osticket } = database;
  if (!osticket) return (await readStoredUser(database.url, targetId)).audit;
  return osticket.query<Row>('SELECT * FROM `deskgate_audit_log` WHERE target_id = ?', [
    String(targetId),
  ]);
}

/**
 * Every stored value a user/add may have written, as one text (to show a secret is in none):
 * deskgate's user tables, audit log and stored answers; in osTicket mode every table's rows.
 */
export async function storedRowsAsText(database: KindDatabase): Promise<string> {
  const { osticket } = database;
  if (!osticket)
    return withDatabase(database.url, async (db) =>
      JSON.stringify([
        await db.selectFrom('users').selectAll().execute(),
        await db.selectFrom('user_emails').selectAll().execute(),
        await db.selectFrom('user_accounts').selectAll().execute(),
        await db.selectFrom('audit_log').selectAll().execute(),
        await db.selectFrom('idempotency_keys').selectAll().execute(),
      ]),
    );
  const rows: unknown[] = [];
  for (const name of Object.keys(await rowCountsOfKind(database)))
    rows.push(await osticket.query(`SELECT * FROM \`${name}\``));
  return JSON.stringify(rows);
}

/** Rows in the user, email, account and audit tables, in that order, on any kind of database. */
export async function userTableCountsOfKind(
  database: KindDatabase,
): Promise<[users: number, emails: number, accounts: number, audit: number]> {
  const p = database.osticket?.prefix;
  const tables =
    p === undefined
      ? ['users', 'user_emails', 'user_accounts', 'audit_log']
      : [`${p}user`, `${p}user_email`, `${p}user_account`, 'deskgate_audit_log'];
  const counted = await userRowCountsOfKind(database);
  const [users, emails, accounts, audit] = tables.map((table) => counted[table] ?? 0);
  return [users ?? 0, emails ?? 0, accounts ?? 0, audit ?? 0];
}
