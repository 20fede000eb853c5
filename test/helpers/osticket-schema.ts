import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { createConnection, type ResultSetHeader } from 'mysql2/promise';
import { ROOT } from './paths.ts';

/**
 * Where the real osTicket 1.18.1 schema and seed are: DESKGATE_TEST_OSTICKET_DIR, else the
 * nearest `shared/osticket/` beside the project or one of its parents (the checkout's layout).
 */
function findOsticketDir(): string | undefined {
  const named = process.env.DESKGATE_TEST_OSTICKET_DIR;
  if (named) return named;
  for (let dir = ROOT; ; dir = dirname(dir)) {
    const candidate = join(dir, 'shared', 'osticket');
    if (existsSync(join(candidate, 'schema-1.18.1.sql'))) return candidate;
    if (dirname(dir) === dir) return undefined;
  }
}

export const OSTICKET_DIR = findOsticketDir();

export interface OsticketDatabase {
  /** For DESKGATE_DATABASE_URL (with DESKGATE_SCHEMA=osticket, prefix `ost_`). */
  url: string;
  query<T>(sql: string, values?: unknown[]): Promise<T[]>;
  /** Runs an INSERT; resolves to the new row's id. */
  insert(sql: string, values?: unknown[]): Promise<number>;
  drop(): Promise<void>;
}

/**
 * A fresh MariaDB database holding exactly what osTicket 1.18.1's installer created
 * (schema-1.18.1.sql + seed-1.18.1.sql), dropped by `drop()`.
 */
export async function createOsticketDatabase(adminUrl: string): Promise<OsticketDatabase> {
  const name = `osticket_r${process.pid}_${randomBytes(4).toString('hex')}`;
  const admin = await createConnection(adminUrl);
  await admin.query(`CREATE DATABASE ${name} CHARACTER SET utf8 COLLATE utf8_general_ci`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const connection = await createConnection({
    uri: url.toString(),
    dateStrings: true,
    multipleStatements: true,
    charset: 'utf8mb4',
  });
  if (!OSTICKET_DIR) throw new Error('no osTicket schema: set DESKGATE_TEST_OSTICKET_DIR');
  for (const file of ['schema-1.18.1.sql', 'seed-1.18.1.sql']) {
    await connection.query(readFileSync(join(OSTICKET_DIR, file), 'utf8'));
  }
  return {
    url: url.toString(),
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
