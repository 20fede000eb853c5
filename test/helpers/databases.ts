import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createConnection } from 'mysql2/promise';
import pg from 'pg';

/** A database a test owns for its lifetime: its own file, schema or database, dropped at the end. */
export interface TestDatabase {
  url: string;
  /** Path of the SQLite file, for tests that inspect the bytes on disk. */
  sqlitePath?: string;
  drop(): Promise<void>;
}

export interface DatabaseKind {
  name: 'sqlite' | 'postgres' | 'mysql';
  create(): Promise<TestDatabase>;
}

function uniqueName(): string {
  return `deskgate_t${process.pid}_${randomBytes(4).toString('hex')}`;
}

const sqlite: DatabaseKind = {
  name: 'sqlite',
  async create() {
    const dir = mkdtempSync(join(tmpdir(), 'deskgate-test-'));
    const path = join(dir, 'deskgate.db');
    return {
      url: `sqlite:${path}`,
      sqlitePath: path,
      drop: async () => rmSync(dir, { recursive: true, force: true }),
    };
  },
};

/**
 * A database of its own on the shared PostgreSQL server (not a schema: a database leaves
 * search_path and the migrator's schema handling out of the picture).
 */
function postgres(adminUrl: string): DatabaseKind {
  async function admin(statement: string): Promise<void> {
    const client = new pg.Client({ connectionString: adminUrl });
    await client.connect();
    try {
      await client.query(statement);
    } finally {
      await client.end();
    }
  }
  return {
    name: 'postgres',
    async create() {
      const name = uniqueName();
      await admin(`create database ${name}`);
      const url = new URL(adminUrl);
      url.pathname = `/${name}`;
      return {
        url: url.toString(),
        drop: () => admin(`drop database if exists ${name} with (force)`),
      };
    },
  };
}

/** A database of its own on the shared MySQL/MariaDB server. */
function mysql(adminUrl: string): DatabaseKind {
  return {
    name: 'mysql',
    async create() {
      const name = uniqueName();
      const admin = await createConnection(adminUrl);
      await admin.query(`create database ${name} character set utf8mb4 collate utf8mb4_unicode_ci`);
      await admin.end();
      const url = new URL(adminUrl);
      url.pathname = `/${name}`;
      return {
        url: url.toString(),
        async drop() {
          const connection = await createConnection(adminUrl);
          await connection.query(`drop database if exists ${name}`);
          await connection.end();
        },
      };
    },
  };
}

const postgresUrl = process.env.DESKGATE_TEST_POSTGRES_URL;
const mysqlUrl = process.env.DESKGATE_TEST_MYSQL_URL;

/** Every database the suite runs against on this machine: SQLite always, the others when CI names them. */
export const DATABASES: readonly DatabaseKind[] = [
  sqlite,
  ...(postgresUrl ? [postgres(postgresUrl)] : []),
  ...(mysqlUrl ? [mysql(mysqlUrl)] : []),
];

/** The database suites this run leaves out, and why. */
export const SKIPPED_DATABASES: readonly { name: string; reason: string }[] = [
  ...(postgresUrl ? [] : [{ name: 'postgres', reason: 'DESKGATE_TEST_POSTGRES_URL is not set' }]),
  ...(mysqlUrl ? [] : [{ name: 'mysql', reason: 'DESKGATE_TEST_MYSQL_URL is not set' }]),
  ...(process.env.DESKGATE_TEST_REDIS_URL
    ? []
    : [{ name: 'redis', reason: 'DESKGATE_TEST_REDIS_URL is not set' }]),
];

/** The MySQL server's admin URL, for suites that only make sense there (osTicket mode). */
export const MYSQL_ADMIN_URL = mysqlUrl;

/** The Redis server for the shared-limits suites (DESKGATE_TEST_REDIS_URL), when CI names one. */
export const REDIS_URL = process.env.DESKGATE_TEST_REDIS_URL;
