import { CompiledQuery, type Kysely } from 'kysely';
import { StoreError } from '../store.ts';
import {
  isRequired,
  type OptionalRequirements,
  type OsticketTableRequirement,
  type Privilege,
  tableName,
} from './osticket-requirements.ts';

/** MySQL's "… command denied to user … for table …". */
const ER_TABLEACCESS_DENIED = 1142;
const ER_NO_SUCH_TABLE = 1146;

/** A grant deskgate's operations need that its database user does not have. */
export class MissingGrantError extends StoreError {
  override name = 'MissingGrantError';
  readonly privilege: Privilege;
  readonly table: string;
  constructor(privilege: Privilege, table: string, options?: ErrorOptions) {
    super(
      `the database user lacks the ${privilege} grant on ${table} (GRANT ${privilege} ON <database>.${table} TO <deskgate's user>, see docs/replacing-the-osticket-web-service.md); grant it and start again (MySQL says the same of a table that does not exist: check DESKGATE_TABLE_PREFIX too)`,
      options,
    );
    this.privilege = privilege;
    this.table = table;
  }
}

function errnoOf(error: unknown): unknown {
  return (error as { errno?: unknown } | null)?.errno;
}

const quote = (name: string) => `\`${name.replaceAll('`', '``')}\``;

/**
 * Statements that need exactly one privilege on a table and touch no row: EXPLAIN checks the
 * privileges of the statement it explains without running it.
 */
function probeOf(privilege: Privilege, table: string, column: string): string | undefined {
  switch (privilege) {
    case 'SELECT':
      return `select * from ${table} limit 0`;
    case 'INSERT':
      return `explain insert into ${table} () values ()`;
    case 'UPDATE':
      return `explain update ${table} set ${quote(column)} = default where 0`;
    case 'DELETE':
      return `explain delete from ${table} where 0`;
    default:
      return undefined;
  }
}

/**
 * Asks the database, table by table, whether deskgate's user holds each SELECT, INSERT, UPDATE
 * and DELETE grant the entities declare (what their operations do), so that a missing one stops
 * the start, or fails /readyz, with one line naming it rather than failing a caller's request.
 * A table that does not exist is skipped (MySQL answers "doesn't exist" only to a user granted
 * on it): osTicket creates some lazily, and assertOsticketTables names the others. `db` has no table prefix plugin: names are given whole.
 */
export async function assertGrants(
  db: Kysely<object>,
  prefix: string,
  requirements: readonly OsticketTableRequirement[],
  optional: OptionalRequirements = {},
): Promise<void> {
  for (const requirement of requirements) {
    if (!isRequired(requirement, optional)) continue;
    const name = tableName(requirement, prefix);
    // A column for UPDATE's probe: any will do, the statement changes nothing.
    const column = requirement.columns?.[0] ?? 'id';
    for (const privilege of requirement.privileges) {
      const probe = probeOf(privilege, quote(name), column);
      if (!probe) continue;
      try {
        await db.executeQuery(CompiledQuery.raw(probe));
      } catch (error) {
        // Absent: lazily created (optional), or for assertOsticketTables to name.
        if (errnoOf(error) === ER_NO_SUCH_TABLE) break;
        if (errnoOf(error) === ER_TABLEACCESS_DENIED)
          throw new MissingGrantError(privilege, name, { cause: error });
        throw error;
      }
    }
  }
}
