import { ConfigError } from '../config.ts';
import type { OpenDatabase, PoolOptions } from './dialects/dialect.ts';
import { type MysqlOptions, openMysql } from './dialects/mysql.ts';
import { openPostgres } from './dialects/postgres.ts';
import { openSqlite } from './dialects/sqlite.ts';

export const DEFAULT_POOL: PoolOptions = {
  max: 10,
  connectTimeoutMs: 5_000,
  queryTimeoutMs: 10_000,
};

/** The file a `sqlite:` URL names (`sqlite:./x.db`, `sqlite:///abs/x.db`); undefined for other URLs. */
export function sqlitePathOf(url: string): string | undefined {
  return url.startsWith('sqlite:') ? url.slice('sqlite:'.length).replace(/^\/\//, '') : undefined;
}

/** Opens the database a `DESKGATE_DATABASE_URL` names: sqlite:, postgres:// or mysql://. */
export function openDatabase<DB>(
  url: string,
  pool: PoolOptions = DEFAULT_POOL,
  mysql: MysqlOptions = {},
): OpenDatabase<DB> {
  const path = sqlitePathOf(url);
  if (path !== undefined) {
    if (path === '') {
      throw new ConfigError(
        'DESKGATE_DATABASE_URL: sqlite: needs a file path, e.g. sqlite:./data/deskgate.db',
      );
    }
    return openSqlite<DB>(path, pool.queryTimeoutMs);
  }
  if (/^postgres(ql)?:\/\//.test(url)) return openPostgres<DB>(url, pool);
  if (/^(mysql|mariadb):\/\//.test(url)) return openMysql<DB>(url, pool, mysql);
  throw new ConfigError(
    'DESKGATE_DATABASE_URL must start with sqlite:, postgres://, mysql:// or mariadb://',
  );
}

/** The URL with any password replaced, for messages and logs. */
export function redactUrl(url: string): string {
  return url.replace(/^([a-z]+:\/\/[^:/@]*):[^@/]*@/i, '$1:***@');
}
