import { StoreError } from './store.ts';

/** MySQL's "command denied" errors: a privilege deskgate's database user lacks. */
const PRIVILEGE_ERRORS = new Set([
  'ER_TABLEACCESS_DENIED_ERROR',
  'ER_COLUMNACCESS_DENIED_ERROR',
  'ER_DBACCESS_DENIED_ERROR',
  'ER_SPECIFIC_ACCESS_DENIED_ERROR',
  'ER_PROCACCESS_DENIED_ERROR',
]);

/**
 * A statement MySQL/MariaDB refused, as mysql2 reports it. (Other databases' errors keep their
 * existing handling; general CLI wording is its own piece of work.)
 */
export function isDatabaseError(
  error: unknown,
): error is Error & { code?: string; sqlMessage: string } {
  return (
    error instanceof Error && typeof (error as { sqlMessage?: unknown }).sqlMessage === 'string'
  );
}

/**
 * A database error at start, or in a CLI command, as one line for a person instead of a stack
 * trace: which statement the database refused and, for a missing privilege, what to do. Other
 * errors pass through unchanged.
 */
export function describeStartError(error: unknown, databaseUrl: string): unknown {
  if (error instanceof StoreError) return error;
  const postgres = describePostgresPrivilegeError(error, databaseUrl);
  if (postgres) return postgres;
  if (!isDatabaseError(error)) return error;
  const reason = error.sqlMessage.split('\n')[0];
  if (error.code && PRIVILEGE_ERRORS.has(error.code)) {
    return new StoreError(
      `the database refused a privilege deskgate needs: ${reason}; grant it (see docs/replacing-the-osticket-web-service.md) and start again`,
      { cause: error },
    );
  }
  return new StoreError(`database error: ${reason}`, { cause: error });
}

/**
 * PostgreSQL's insufficient_privilege (42501). "permission denied for schema public" is what a
 * dedicated role meets on PostgreSQL 15 and newer, which no longer lets every role create in
 * `public`: the line names the two fixes.
 */
function describePostgresPrivilegeError(
  error: unknown,
  databaseUrl: string,
): StoreError | undefined {
  const { code, message, severity } = (error ?? {}) as Record<string, unknown>;
  if (code !== '42501' || typeof message !== 'string' || typeof severity !== 'string') return;
  const reason = message.split('\n')[0];
  const schema = /^permission denied for schema (\S+)/.exec(message)?.[1];
  const role = roleOf(databaseUrl);
  const fix = schema
    ? `as its owner or a superuser run GRANT CREATE ON SCHEMA ${schema} TO ${role}, or give the role a schema of its own, named after it (CREATE SCHEMA AUTHORIZATION ${role})`
    : 'grant it';
  return new StoreError(
    `the database refused a privilege deskgate needs: ${reason}; ${fix} (see docs/running-on-postgresql.md) and start again`,
    { cause: error },
  );
}

/**
 * The role the URL logs in as, quoted as SQL needs it (a name with capitals or other characters
 * in double quotes), for a statement to paste; a placeholder when the URL names none (libpq's
 * defaults then chose it).
 */
function roleOf(databaseUrl: string): string {
  let role = '';
  try {
    role = decodeURIComponent(new URL(databaseUrl).username);
  } catch {}
  if (role === '') return '<the role deskgate connects as>';
  return /^[a-z_][a-z0-9_$]*$/.test(role) ? role : `"${role.replaceAll('"', '""')}"`;
}
