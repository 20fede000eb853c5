import { randomBytes } from 'node:crypto';
import { createConnection } from 'mysql2/promise';
import pg from 'pg';

export interface BenchDatabase {
  url: string;
  drop(): Promise<void>;
}

/** A database of its own on the given server, dropped after the run. */
export async function freshDatabase(
  dialect: 'postgres' | 'mysql',
  adminUrl: string,
): Promise<BenchDatabase> {
  const name = `deskgate_bench_${randomBytes(4).toString('hex')}`;
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  if (dialect === 'postgres') {
    const admin = async (statement: string) => {
      const client = new pg.Client({ connectionString: adminUrl });
      await client.connect();
      try {
        await client.query(statement);
      } finally {
        await client.end();
      }
    };
    await admin(`create database ${name}`);
    return { url: url.href, drop: () => admin(`drop database if exists ${name} with (force)`) };
  }
  const admin = async (statement: string) => {
    const connection = await createConnection(adminUrl);
    try {
      await connection.query(statement);
    } finally {
      await connection.end();
    }
  };
  await admin(`create database ${name} character set utf8mb4 collate utf8mb4_unicode_ci`);
  return { url: url.href, drop: () => admin(`drop database if exists ${name}`) };
}
