import { redactUrl } from './open-database.ts';
import { StoreError } from './store.ts';

/**
 * Error codes of the failures a person fixes in the URL or on the server, not in deskgate: a
 * database or role that does not exist, a wrong password, a file SQLite cannot open or write.
 */
const REFUSALS = new Set([
  // PostgreSQL: invalid_catalog_name, invalid_authorization_specification, invalid_password
  '3D000',
  '28000',
  '28P01',
  // MySQL / MariaDB
  'ER_BAD_DB_ERROR',
  'ER_ACCESS_DENIED_ERROR',
  'ER_ACCESS_DENIED_NO_PASSWORD_ERROR',
  'ER_DBACCESS_DENIED_ERROR',
  // SQLite
  'SQLITE_CANTOPEN',
  'SQLITE_NOTADB',
  'SQLITE_PERM',
  'SQLITE_READONLY',
]);

/** The database's own one-line account of such a failure, or undefined for anything else. */
export function describeRefusal(error: unknown): string | undefined {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  if (typeof code !== 'string' || typeof message !== 'string') return undefined;
  const known = REFUSALS.has(code) || code.startsWith('SQLITE_READONLY_');
  return known ? message.split('\n')[0] : undefined;
}

/** The database the URL names refused to open (see describeRefusal). */
export class DatabaseRefusedError extends StoreError {
  override name = 'DatabaseRefusedError';
  constructor(databaseUrl: string, reason: string, options?: ErrorOptions) {
    super(`cannot open the database at ${redactUrl(databaseUrl)}: ${reason}`, options);
  }
}

/**
 * A database without deskgate's tables (empty, another application's, or a SQLite file that does
 * not exist) opened by a command that must not create them: only `serve` and `migrate` do.
 */
export class NotADeskgateDatabaseError extends StoreError {
  override name = 'NotADeskgateDatabaseError';
  constructor(databaseUrl: string, detail: string) {
    super(
      `${redactUrl(databaseUrl)} is not (yet) a deskgate database (${detail}); \`deskgate migrate\` sets it up`,
    );
  }
}
