import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { type Connection, createConnection, type ResultSetHeader } from 'mysql2/promise';
import { MYSQL_ADMIN_URL } from '../helpers/databases.ts';
import { grantOsticketKey } from '../helpers/osticket-key-grant.ts';
import { ROOT } from '../helpers/paths.ts';

/**
 * The reference: the schema osTicket 1.18.1's installer creates and the rows of its topics and
 * forms, in `shared/osticket/` beside the repository (as CI checks it out) or beside one of its
 * parents (a worktree's layout), or where DESKGATE_TEST_OSTICKET_DIR points.
 */
function findOsticketDir(): string {
  const named = process.env.DESKGATE_TEST_OSTICKET_DIR;
  if (named) return named;
  for (let dir = ROOT; ; dir = dirname(dir)) {
    const candidate = join(dir, 'shared', 'osticket');
    if (existsSync(join(candidate, 'schema-1.18.1.sql'))) return candidate;
    if (dirname(dir) === dir) return join(ROOT, '..', 'shared', 'osticket');
  }
}

export const OSTICKET_DIR = findOsticketDir();
const SCHEMA_FILE = join(OSTICKET_DIR, 'schema-1.18.1.sql');
const SEED_FILE = join(OSTICKET_DIR, 'seed-1.18.1.sql');
export const README_FILE = join(OSTICKET_DIR, 'README.md');

/** Why the osTicket-mode suites cannot run here, or false when they can. */
export const OSTICKET_SKIP: string | false = !MYSQL_ADMIN_URL
  ? 'skipped: DESKGATE_TEST_MYSQL_URL is not set (osTicket mode runs on MariaDB/MySQL)'
  : !existsSync(SCHEMA_FILE) || !existsSync(SEED_FILE)
    ? `skipped: osTicket 1.18.1's schema and seed are not at ${OSTICKET_DIR} (check out ../shared beside the repository, or set DESKGATE_TEST_OSTICKET_DIR)`
    : false;

export interface OsticketKey {
  id: number;
  key: string;
}

export interface OsticketDatabase {
  /** URL of the osTicket database, for DESKGATE_DATABASE_URL. */
  url: string;
  /** The database's name. */
  name: string;
  prefix: string;
  /**
   * An active key bound to 127.0.0.1, allowed to create tickets, and (unless `formerWriteKey:
   * false`) granted write, users:read, tickets:read and tickets:write as any agent.
   */
  writeKey: OsticketKey;
  /** An active key without can_create_tickets. */
  readKey: OsticketKey;
  /** A disabled key. */
  inactiveKey: OsticketKey;
  /** An active key bound to another address. */
  elsewhereKey: OsticketKey;
  /** A connection of the test's own, in the server's time zone, DATETIMEs as text. */
  query<T>(sql: string, values?: unknown[]): Promise<T[]>;
  /** Runs an INSERT; resolves to the new row's id. */
  insert(sql: string, values?: unknown[]): Promise<number>;
  drop(): Promise<void>;
}

export interface OsticketDatabaseOptions {
  /** Table prefix instead of osTicket's default `ost_`. */
  prefix?: string;
  /** Whether `user__cdata` exists: osTicket creates it lazily, so an install may not have it yet. */
  contactTable?: boolean;
  /** Admin URL of the server to create it on; default the shared test MariaDB. */
  adminUrl?: string;
  /**
   * Whether `writeKey` is granted, with the real `deskgate osticket keys grant` (after `deskgate
   * migrate`), what every "Can Create Tickets" key could do before issue 32: write, users:read,
   * tickets:read and tickets:write as any agent. Default true; false leaves deskgate's tables
   * uncreated and the key with osTicket's own rights.
   */
  formerWriteKey?: boolean;
}

function withPrefix(sqlText: string, prefix: string): string {
  return prefix === 'ost_' ? sqlText : sqlText.replaceAll('`ost_', `\`${prefix}`);
}

async function insertKeys(
  connection: Connection,
  prefix: string,
): Promise<Record<'write' | 'read' | 'inactive' | 'elsewhere', OsticketKey>> {
  const keys: Partial<Record<'write' | 'read' | 'inactive' | 'elsewhere', OsticketKey>> = {};
  for (const [label, active, ip, canCreate] of [
    ['write', 1, '127.0.0.1', 1],
    ['read', 1, '127.0.0.1', 0],
    ['inactive', 0, '127.0.0.1', 1],
    ['elsewhere', 1, '192.0.2.10', 1],
  ] as const) {
    // As osTicket's admin panel makes them: 32 uppercase hex characters, stored in clear.
    const key = randomBytes(16).toString('hex').toUpperCase();
    const [result] = await connection.query(
      `INSERT INTO \`${prefix}api_key\` (isactive, ipaddr, apikey, can_create_tickets, can_exec_cron, notes, updated, created)
       VALUES (?, ?, ?, ?, 1, ?, NOW(), NOW())`,
      [active, ip, key, canCreate, `${label} key`],
    );
    keys[label] = { id: (result as { insertId: number }).insertId, key };
  }
  return keys as Record<'write' | 'read' | 'inactive' | 'elsewhere', OsticketKey>;
}

/**
 * A fresh database holding exactly osTicket 1.18.1's schema and seed rows (plus four API keys),
 * created as osTicket's installer does (utf8mb3).
 */
export async function createOsticketDatabase(
  options: OsticketDatabaseOptions = {},
): Promise<OsticketDatabase> {
  const adminUrl = options.adminUrl ?? (MYSQL_ADMIN_URL as string);
  const prefix = options.prefix ?? 'ost_';
  const name = `osticket_t${process.pid}_${randomBytes(4).toString('hex')}`;
  const admin = await createConnection(adminUrl);
  await admin.query(`CREATE DATABASE ${name} CHARACTER SET utf8mb3 COLLATE utf8mb3_general_ci`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const connection = await createConnection({
    uri: url.toString(),
    dateStrings: true,
    multipleStatements: true,
    charset: 'utf8mb4',
  });
  await connection.query(withPrefix(readFileSync(SCHEMA_FILE, 'utf8'), prefix));
  await connection.query(withPrefix(readFileSync(SEED_FILE, 'utf8'), prefix));
  if (options.contactTable === false) await connection.query(`DROP TABLE \`${prefix}user__cdata\``);
  const keys = await insertKeys(connection, prefix);
  if (options.formerWriteKey !== false)
    await grantOsticketKey({ url: url.toString(), prefix }, keys.write.id);
  return {
    url: url.toString(),
    name,
    prefix,
    writeKey: keys.write,
    readKey: keys.read,
    inactiveKey: keys.inactive,
    elsewhereKey: keys.elsewhere,
    async query<T>(sql: string, values: unknown[] = []) {
      const [rows] = await connection.query(sql, values);
      return rows as T[];
    },
    async insert(sql: string, values: unknown[] = []) {
      const [result] = await connection.query<ResultSetHeader>(sql, values);
      return result.insertId;
    },
    async drop() {
      await connection.end();
      const cleanup = await createConnection(adminUrl);
      await cleanup.query(`DROP DATABASE IF EXISTS ${name}`);
      await cleanup.end();
    },
  };
}

/** The environment for deskgate in osTicket mode on this database. */
export function osticketEnv(database: OsticketDatabase): Record<string, string> {
  return {
    DESKGATE_DATABASE_URL: database.url,
    DESKGATE_SCHEMA: 'osticket',
    DESKGATE_TABLE_PREFIX: database.prefix,
  };
}

/**
 * A ticket as osTicket opens one, without its first message: the ticket, its thread and the
 * thread's `created` event (what the feed's reader turns into `ticket.created`).
 */
export async function insertOpenedTicket(
  database: Pick<OsticketDatabase, 'insert'>,
): Promise<{ ticketId: number; threadId: number; number: string }> {
  const number = String(100_000 + Math.floor(Math.random() * 800_000));
  const ticketId = await database.insert(
    `INSERT INTO ost_ticket (number, user_id, status_id, dept_id, created, updated)
     VALUES (?, 1, 1, 1, NOW(), NOW())`,
    [number],
  );
  const threadId = await database.insert(
    `INSERT INTO ost_thread (object_id, object_type, created) VALUES (?, 'T', NOW())`,
    [ticketId],
  );
  await database.insert(
    `INSERT INTO ost_thread_event (thread_id, thread_type, event_id, staff_id, team_id, dept_id, topic_id, username, uid, uid_type, timestamp)
     VALUES (?, 'T', (SELECT id FROM ost_event WHERE name = 'created'), 0, 0, 1, 0, 'Tess', 1, 'U', NOW())`,
    [threadId],
  );
  return { ticketId, threadId, number };
}
