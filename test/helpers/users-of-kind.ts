import { randomBytes } from 'node:crypto';
import type { OsticketDatabase } from '../osticket/osticket-database.ts';
import { createUsersCreatedAt, type NewUserAt } from './data-setup.ts';
import type { KindDatabase } from './each-database.ts';
import { FORMER_RIGHTS, grantOsticketKey } from './osticket-key-grant.ts';
import type { TestServer } from './test-server.ts';

/**
 * A user as osTicket's staff panel creates one (shared/osticket/README.md): the user, its email,
 * its account, and its form entry with the phone, mirrored in `user__cdata`. Resolves to its id.
 */
export async function insertStaffMadeUser(db: OsticketDatabase, email: string): Promise<number> {
  const p = db.prefix;
  const userId = await db.insert(
    `INSERT INTO ${p}user (org_id, default_email_id, status, name, created, updated)
     VALUES (0, 0, 0, 'Staff Made', NOW(), NOW())`,
  );
  const emailId = await db.insert(
    `INSERT INTO ${p}user_email (user_id, flags, address) VALUES (?, 0, ?)`,
    [userId, email],
  );
  await db.query(`UPDATE ${p}user SET default_email_id = ? WHERE id = ?`, [emailId, userId]);
  await db.query(
    `INSERT INTO ${p}user_account (user_id, status, timezone, passwd, registered)
     VALUES (?, 1, 'Europe/Lisbon', '$2a$08$abcdefghijklmnopqrstuuJ3dYB6Rk6yJ8zPZl5bY6m4wR6Hk1i6', NOW())`,
    [userId],
  );
  const entryId = await db.insert(
    `INSERT INTO ${p}form_entry (form_id, object_id, object_type, sort, extra, created, updated)
     SELECT id, ?, 'U', 1, NULL, NOW(), NOW() FROM ${p}form WHERE type = 'U'`,
    [userId],
  );
  await db.query(
    `INSERT INTO ${p}form_entry_values (entry_id, field_id, value, value_id)
     SELECT ?, f.id, CASE f.name WHEN 'phone' THEN '5551234' ELSE NULL END, NULL
     FROM ${p}form_field f JOIN ${p}form fm ON fm.id = f.form_id
     WHERE fm.type = 'U' AND f.name IN ('phone', 'notes')`,
    [entryId],
  );
  await db.query(
    `INSERT INTO ${p}user__cdata (user_id, email, name, phone, notes) VALUES (?, NULL, NULL, '5551234', '')`,
    [userId],
  );
  return userId;
}

/**
 * A user row created at `created` (`YYYY-MM-DD HH:MM:SS`) with its email if given, as osTicket
 * keeps them (no account, no form entry: the view answers '' for what is missing). Resolves to its id.
 */
export async function insertOsticketUserAt(
  db: OsticketDatabase,
  user: { name: string; email?: string },
  created: string,
): Promise<number> {
  const p = db.prefix;
  const userId = await db.insert(
    `INSERT INTO ${p}user (org_id, default_email_id, status, name, created, updated)
     VALUES (0, 0, 0, ?, ?, ?)`,
    [user.name, created, created],
  );
  if (user.email === undefined) return userId;
  const emailId = await db.insert(
    `INSERT INTO ${p}user_email (user_id, flags, address) VALUES (?, 0, ?)`,
    [userId, user.email],
  );
  await db.query(`UPDATE ${p}user SET default_email_id = ? WHERE id = ?`, [emailId, userId]);
  return userId;
}

/**
 * Users created at `created` on any kind of database (describeEachDatabaseKind): through the
 * store's write path on deskgate's schema (createUsersCreatedAt), as rows in osTicket mode.
 * Resolves to their ids, in the order given.
 */
export async function createUsersOfKindAt(
  database: KindDatabase,
  server: Pick<TestServer, 'store'>,
  list: readonly NewUserAt[],
  created: string,
): Promise<number[]> {
  const { osticket } = database;
  if (!osticket) return createUsersCreatedAt(server, database.url, list, created);
  const ids: number[] = [];
  for (const user of list) ids.push(await insertOsticketUserAt(osticket, user, created));
  return ids;
}

/** A key that reads users, and one that may read and write but not read users. */
export interface UserKeys {
  usersKey: string;
  noUsersKey: string;
}

/**
 * The keys of a user operation's suite: deskgate's (users:read and write; read and write), or
 * osTicket's own, with and without "Can Create Tickets" (granted users:read, and not).
 */
export async function userKeysOfKind(
  database: KindDatabase,
  server: Pick<TestServer, 'createKey'>,
): Promise<UserKeys> {
  const { osticket } = database;
  if (osticket) return { usersKey: osticket.writeKey.key, noUsersKey: osticket.readKey.key };
  const { key: usersKey } = await server.createKey({ scopes: ['users:read', 'write'] });
  const { key: noUsersKey } = await server.createKey({ scopes: ['read', 'write'] });
  return { usersKey, noUsersKey };
}

/**
 * Another key that may add users (describeEachDatabaseKind): issued with scope write on deskgate's
 * schema; in osTicket mode an osTicket key as its admin panel makes one (active, 127.0.0.1, "Can
 * Create Tickets") granted as an admin does, with `grants` (FORMER_RIGHTS, the suite write key's).
 */
export async function addWriteKeyOfKind(
  database: KindDatabase,
  server: Pick<TestServer, 'createKey'>,
  grants: readonly string[] = FORMER_RIGHTS,
): Promise<{ id: number; key: string }> {
  const { osticket } = database;
  if (!osticket) return server.createKey({ scopes: ['write'] });
  const key = randomBytes(16).toString('hex').toUpperCase();
  const id = await osticket.insert(
    `INSERT INTO \`${osticket.prefix}api_key\` (isactive, ipaddr, apikey, can_create_tickets, can_exec_cron, notes, updated, created)
     VALUES (1, '127.0.0.1', ?, 1, 0, 'another write key', NOW(), NOW())`,
    [key],
  );
  await grantOsticketKey(osticket, id, grants);
  return { id, key };
}
