import { StoreError } from './store.ts';

/** MySQL's "command denied" errors: a privilege deskgate's database user lacks. */
const PRIVILEGE_ERRORS = new Set([
  'ER_TABLEACCESS_DENIED_ERROR',
  'ER_COLUMNACCESS_DENIED_ERROR',
  'ER_DBACCESS_DENIED_ERROR',
  'ER_SPECIFIC_ACCESS_DENIED_ERROR',
  'ER_PROCACCESS_DENIED_ERROR',
]);

/** A failure of the database to run a statement, as the drivers report it (mysql2's sqlMessage, pg's severity). */
export function isDatabaseError(
  error: unknown,
): error is Error & { code?: string; sqlMessage?: string } {
  if (!(error instanceof Error)) return false;
  const e = error as { sqlMessage?: unknown; severity?: unknown; code?: unknown };
  return (
    typeof e.sqlMessage === 'string' ||
    typeof e.severity === 'string' ||
    (typeof e.code === 'string' && e.code.startsWith('SQLITE_'))
  );
}

/**
 * A database error at start, or in a CLI command, as one line for a person instead of a stack
 * trace: which statement the database refused and, for a missing privilege, what to do. Other
 * errors pass through unchanged.
 */
export function describeStartError(error: unknown): unknown {
  if (error instanceof StoreError || !isDatabaseError(error)) return error;
  const reason = (error.sqlMessage ?? error.message).split('\n')[0];
  if (error.code && PRIVILEGE_ERRORS.has(error.code)) {
    return new StoreError(
      `the database refused a privilege deskgate needs: ${reason}; grant it (see docs/replacing-the-osticket-web-service.md) and start again`,
      { cause: error },
    );
  }
  return new StoreError(`database error: ${reason}`, { cause: error });
}
