import {
  injectInsertFailure,
  removeInsertFailure,
  type TableName,
} from '../support/database-rows.ts';
import type { KindDatabase } from './each-database.ts';

/**
 * A table a write touches, as its layout names it: on deskgate's schema its own name; in osTicket
 * mode osTicket's table without its prefix (`user_email`), or deskgate's own table beside them,
 * named in full (`deskgate_audit_log`).
 */
export type TableOfKind = TableName | (string & {});

function osticketTable(prefix: string, table: string): string {
  return table.startsWith('deskgate_') ? table : `${prefix}${table}`;
}

function triggerName(table: string): string {
  return `deskgate_test_fail_${table}`;
}

/**
 * Makes every INSERT into `table` fail with a database error ('injected failure') on any kind of
 * database (describeEachDatabaseKind), through a trigger: injectInsertFailure on deskgate's
 * schema, a MariaDB trigger on osTicket's (or deskgate's) table in osTicket mode.
 */
export async function injectInsertFailureOfKind(
  database: KindDatabase,
  table: TableOfKind,
): Promise<void> {
  const { osticket } = database;
  if (!osticket) return injectInsertFailure(database.url, table as TableName);
  await osticket.query(
    `CREATE TRIGGER \`${triggerName(table)}\` BEFORE INSERT ON \`${osticketTable(osticket.prefix, table)}\`
     FOR EACH ROW SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'injected failure'`,
  );
}

/** Undoes injectInsertFailureOfKind. */
export async function removeInsertFailureOfKind(
  database: KindDatabase,
  table: TableOfKind,
): Promise<void> {
  const { osticket } = database;
  if (!osticket) return removeInsertFailure(database.url, table as TableName);
  await osticket.query(`DROP TRIGGER \`${triggerName(table)}\``);
}
