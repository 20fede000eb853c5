import { randomBytes } from 'node:crypto';
import { createConnection } from 'mysql2/promise';

/**
 * An osTicket database as an osTicket 1.17/1.18 install creates it (the tables deskgate uses,
 * with osTicket's column types, defaults and unique keys), seeded like a fresh install.
 */
function ddl(p: string): string[] {
  return [
    `CREATE TABLE \`${p}help_topic\` (
      topic_id int(11) unsigned NOT NULL AUTO_INCREMENT,
      topic_pid int(10) unsigned NOT NULL DEFAULT 0,
      isactive tinyint(1) unsigned NOT NULL DEFAULT 1,
      ispublic tinyint(1) unsigned NOT NULL DEFAULT 1,
      noautoresp tinyint(3) unsigned NOT NULL DEFAULT 0,
      flags int(10) unsigned DEFAULT 0,
      status_id int(10) unsigned NOT NULL DEFAULT 0,
      priority_id int(10) unsigned NOT NULL DEFAULT 0,
      dept_id int(10) unsigned NOT NULL DEFAULT 0,
      staff_id int(10) unsigned NOT NULL DEFAULT 0,
      team_id int(10) unsigned NOT NULL DEFAULT 0,
      sla_id int(10) unsigned NOT NULL DEFAULT 0,
      page_id int(10) unsigned NOT NULL DEFAULT 0,
      sequence_id int(10) unsigned NOT NULL DEFAULT 0,
      sort int(10) unsigned NOT NULL DEFAULT 0,
      topic varchar(128) NOT NULL DEFAULT '',
      number_format varchar(32) DEFAULT NULL,
      notes text,
      created datetime NOT NULL,
      updated datetime NOT NULL,
      PRIMARY KEY (topic_id),
      UNIQUE KEY topic (topic, topic_pid)
    ) DEFAULT CHARSET=utf8`,
    `CREATE TABLE \`${p}user\` (
      id int(10) unsigned NOT NULL AUTO_INCREMENT,
      org_id int(10) unsigned NOT NULL,
      default_email_id int(10) NOT NULL,
      status int(11) unsigned NOT NULL DEFAULT 0,
      name varchar(128) NOT NULL,
      created datetime NOT NULL,
      updated datetime NOT NULL,
      PRIMARY KEY (id),
      KEY org_id (org_id),
      KEY default_email_id (default_email_id),
      KEY name (name)
    ) DEFAULT CHARSET=utf8`,
    `CREATE TABLE \`${p}user_email\` (
      id int(10) unsigned NOT NULL AUTO_INCREMENT,
      user_id int(10) unsigned NOT NULL,
      flags int(10) unsigned NOT NULL DEFAULT 0,
      address varchar(255) NOT NULL,
      PRIMARY KEY (id),
      UNIQUE KEY address (address),
      KEY user_email_lookup (user_id)
    ) DEFAULT CHARSET=utf8`,
    `CREATE TABLE \`${p}user_account\` (
      id int(11) unsigned NOT NULL AUTO_INCREMENT,
      user_id int(10) unsigned NOT NULL,
      status int(11) unsigned NOT NULL DEFAULT 0,
      timezone varchar(64) DEFAULT NULL,
      lang varchar(16) DEFAULT NULL,
      username varchar(64) DEFAULT NULL,
      passwd varchar(128) CHARACTER SET ascii COLLATE ascii_bin DEFAULT NULL,
      backend varchar(32) DEFAULT NULL,
      extra text,
      registered timestamp NULL DEFAULT NULL,
      PRIMARY KEY (id),
      UNIQUE KEY user_id (user_id),
      UNIQUE KEY username (username)
    ) DEFAULT CHARSET=utf8`,
    `CREATE TABLE \`${p}api_key\` (
      id int(10) unsigned NOT NULL AUTO_INCREMENT,
      isactive tinyint(1) NOT NULL DEFAULT 1,
      ipaddr varchar(64) NOT NULL,
      apikey varchar(255) NOT NULL,
      can_create_tickets tinyint(1) unsigned NOT NULL DEFAULT 1,
      can_exec_cron tinyint(1) unsigned NOT NULL DEFAULT 1,
      notes text,
      updated datetime NOT NULL,
      created datetime NOT NULL,
      PRIMARY KEY (id),
      UNIQUE KEY apikey (apikey)
    ) DEFAULT CHARSET=utf8`,
  ];
}

function contactTableDdl(p: string): string {
  return `CREATE TABLE \`${p}user__cdata\` (
    user_id int(11) unsigned NOT NULL,
    email mediumtext,
    name mediumtext,
    phone mediumtext,
    notes mediumtext,
    PRIMARY KEY (user_id)
  ) DEFAULT CHARSET=utf8`;
}

export interface OsticketKey {
  id: number;
  key: string;
}

export interface OsticketFixture {
  /** URL of the osTicket database, for DESKGATE_DATABASE_URL. */
  url: string;
  prefix: string;
  /** The active key of a fresh install, bound to 127.0.0.1, allowed to create tickets. */
  writeKey: OsticketKey;
  /** An active key without can_create_tickets. */
  readKey: OsticketKey;
  /** A disabled key. */
  inactiveKey: OsticketKey;
  /** An active key bound to another address. */
  elsewhereKey: OsticketKey;
  query<T>(sql: string, values?: unknown[]): Promise<T[]>;
  drop(): Promise<void>;
}

function newKey(): string {
  return randomBytes(16).toString('hex').toUpperCase();
}

export async function createOsticketFixture(
  adminUrl: string,
  options: { prefix?: string; contactTable?: boolean } = {},
): Promise<OsticketFixture> {
  const prefix = options.prefix ?? 'ost_';
  const name = `osticket_t${process.pid}_${randomBytes(4).toString('hex')}`;
  const admin = await createConnection(adminUrl);
  await admin.query(`CREATE DATABASE ${name} CHARACTER SET utf8 COLLATE utf8_general_ci`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const connection = await createConnection({ uri: url.toString(), dateStrings: true });
  await connection.query("SET time_zone = '+00:00'");
  for (const statement of ddl(prefix)) await connection.query(statement);
  if (options.contactTable !== false) await connection.query(contactTableDdl(prefix));
  await connection.query(
    `INSERT INTO \`${prefix}help_topic\` (topic_id, topic_pid, ispublic, sort, topic, notes, created, updated) VALUES
      (1, 0, 1, 2, 'General Inquiry', 'Questions about products or services', NOW(), NOW()),
      (2, 0, 1, 1, 'Feedback', 'Tickets that primarily concern the sales and billing departments', NOW(), NOW()),
      (10, 0, 1, 3, 'Report a Problem', 'Product, service, or equipment related issues', NOW(), NOW()),
      (11, 10, 1, 4, 'Access Issue', 'Report an inability access a physical or virtual asset', NOW(), NOW()),
      (12, 0, 0, 5, 'Internal', NULL, NOW(), NOW())`,
  );
  const keys: Record<string, OsticketKey> = {};
  for (const [label, active, ip, canCreate] of [
    ['write', 1, '127.0.0.1', 1],
    ['read', 1, '127.0.0.1', 0],
    ['inactive', 0, '127.0.0.1', 1],
    ['elsewhere', 1, '192.0.2.10', 1],
  ] as const) {
    const key = newKey();
    const [result] = await connection.query(
      `INSERT INTO \`${prefix}api_key\` (isactive, ipaddr, apikey, can_create_tickets, notes, updated, created)
       VALUES (?, ?, ?, ?, ?, NOW(), NOW())`,
      [active, ip, key, canCreate, `${label} key`],
    );
    keys[label] = { id: (result as { insertId: number }).insertId, key };
  }
  return {
    url: url.toString(),
    prefix,
    writeKey: keys.write as OsticketKey,
    readKey: keys.read as OsticketKey,
    inactiveKey: keys.inactive as OsticketKey,
    elsewhereKey: keys.elsewhere as OsticketKey,
    async query<T>(sql: string, values: unknown[] = []) {
      const [rows] = await connection.query(sql, values);
      return rows as T[];
    },
    async drop() {
      await connection.end();
      const cleanup = await createConnection(adminUrl);
      await cleanup.query(`DROP DATABASE IF EXISTS ${name}`);
      await cleanup.end();
    },
  };
}
