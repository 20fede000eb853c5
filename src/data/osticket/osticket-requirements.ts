import type { AnyEntity, OsticketRequirements } from '../entity.ts';

/** Table privileges, in the order the grants block lists them. */
export const PRIVILEGES = [
  'CREATE',
  'ALTER',
  'INDEX',
  'SELECT',
  'INSERT',
  'UPDATE',
  'DELETE',
] as const;
export type Privilege = (typeof PRIVILEGES)[number];

/** One table an entity uses in an osTicket database, and how. */
export interface OsticketTableRequirement {
  /** osTicket's name without its prefix (`help_topic`), or with `own`, deskgate's name (`audit_log`). */
  readonly table: string;
  readonly privileges: readonly Privilege[];
  /**
   * The columns deskgate reads: the start and /readyz select them (no row), so a column gone or
   * a grant missing stops the start rather than a caller's request. None: not probed.
   */
  readonly columns?: readonly string[];
  /** osTicket creates the table lazily (`user__cdata`): its absence is no error. */
  readonly optional?: boolean;
  /** Only used with DESKGATE_OSTICKET_SYSLOG=true. */
  readonly syslogOnly?: boolean;
  /** Only used with DESKGATE_OSTICKET_ADMIN_WRITES=true (the `admin` scope's writes). */
  readonly adminOnly?: boolean;
  /** deskgate's own table, `deskgate_<table>` in an osTicket database, created by its migrations. */
  readonly own?: boolean;
  /** A comment line above its grant in the docs. */
  readonly note?: string;
}

/** What deskgate's migrations need in an osTicket database: their own two bookkeeping tables. */
const MIGRATION_REQUIREMENTS: OsticketRequirements = {
  comment: "deskgate's migration history",
  tables: [
    { table: 'migration', own: true, privileges: ['CREATE', 'SELECT', 'INSERT'] },
    { table: 'migration_lock', own: true, privileges: ['CREATE', 'SELECT', 'INSERT'] },
  ],
};

const ADMIN_ONLY =
  'only with DESKGATE_OSTICKET_ADMIN_WRITES=true (the `admin` scope: department/add, sla/add, sla/delete)';

/** The prefix of deskgate's own tables in an osTicket database. */
export const OWN_TABLE_PREFIX = 'deskgate_';

/** A requirement's table name in an osTicket database with this prefix. */
export function tableName(requirement: OsticketTableRequirement, prefix: string): string {
  return `${requirement.own ? OWN_TABLE_PREFIX : prefix}${requirement.table}`;
}

function union<T extends string>(order: readonly T[], a: readonly T[], b: readonly T[]): T[] {
  const all = new Set([...a, ...b]);
  return order.filter((item) => all.has(item));
}

/** Whether the start check and /readyz ask for `requirement` under these settings. */
export function isRequired(
  requirement: OsticketTableRequirement,
  { syslog = false, adminWrites = false }: OptionalRequirements = {},
): boolean {
  return (syslog || !requirement.syslogOnly) && (adminWrites || !requirement.adminOnly);
}

/** The settings that add requirements: DESKGATE_OSTICKET_SYSLOG, DESKGATE_OSTICKET_ADMIN_WRITES. */
export interface OptionalRequirements {
  syslog?: boolean;
  adminWrites?: boolean;
}

/**
 * The requirements of `entities` (each once, in order) and of the migrations, merged: a table
 * several entities use appears once, under the first, with the union of their privileges and
 * columns (once among those always required, once among those only admin writes need).
 */
export function collectRequirements(entities: readonly AnyEntity[]): OsticketRequirements[] {
  const groups: { comment: string; tables: OsticketTableRequirement[] }[] = [];
  const seen = new Map<string, { group: OsticketTableRequirement[]; index: number }>();
  const sources = [...new Set(entities)].map((e) => e.osticketRequires);
  for (const { comment, tables } of [...sources, MIGRATION_REQUIREMENTS]) {
    const group: OsticketTableRequirement[] = [];
    for (const requirement of tables) {
      const key = `${tableName(requirement, '')}${requirement.adminOnly ? ' admin' : ''}`;
      const earlier = seen.get(key);
      if (!earlier) {
        seen.set(key, { group, index: group.length });
        group.push(requirement);
        continue;
      }
      const first = earlier.group[earlier.index] as OsticketTableRequirement;
      earlier.group[earlier.index] = {
        ...first,
        privileges: union(PRIVILEGES, first.privileges, requirement.privileges),
        columns: [...new Set([...(first.columns ?? []), ...(requirement.columns ?? [])])],
      };
    }
    if (group.length > 0) groups.push({ comment, tables: group });
  }
  return withoutGrantedTwice(groups, seen);
}

/** Admin-only privileges a table's always-required grant already has are left out. */
function withoutGrantedTwice(
  groups: { comment: string; tables: OsticketTableRequirement[] }[],
  seen: ReadonlyMap<string, { group: OsticketTableRequirement[]; index: number }>,
): OsticketRequirements[] {
  return groups
    .map(({ comment, tables }) => ({
      comment,
      tables: tables.flatMap((requirement) => {
        if (!requirement.adminOnly) return [requirement];
        const always = seen.get(tableName(requirement, ''));
        const granted = new Set(always?.group[always.index]?.privileges ?? []);
        const privileges = requirement.privileges.filter((p) => !granted.has(p));
        return privileges.length > 0 ? [{ ...requirement, privileges }] : [];
      }),
    }))
    .filter((group) => group.tables.length > 0);
}

/** Every table requirement of `groups`, flat. */
export function tableRequirements(
  groups: readonly OsticketRequirements[],
): OsticketTableRequirement[] {
  return groups.flatMap((g) => g.tables);
}

/**
 * The SQL the docs give an administrator (docs/replacing-the-osticket-web-service.md, between
 * its `grants:` markers), for database `osticket`, prefix `ost_` and account 'deskgate'@'%'.
 */
export function renderGrants(groups: readonly OsticketRequirements[]): string {
  const account = "'deskgate'@'%'";
  const lines = [`CREATE USER ${account} IDENTIFIED BY 'change-me';`];
  for (const { comment, tables } of groups) {
    lines.push(`-- ${comment}`);
    let adminLines = false;
    for (const requirement of tables) {
      if (requirement.adminOnly && !adminLines) lines.push(`-- ${ADMIN_ONLY}`);
      adminLines = requirement.adminOnly === true;
      if (requirement.note) lines.push(`-- ${requirement.note}`);
      const privileges = union(PRIVILEGES, requirement.privileges, []).join(', ');
      lines.push(
        `GRANT ${privileges} ON osticket.${tableName(requirement, 'ost_')} TO ${account};`,
      );
    }
  }
  return `${lines.join('\n')}\n`;
}
