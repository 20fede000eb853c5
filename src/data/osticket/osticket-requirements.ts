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

/**
 * The requirements of `entities` (each once, in order) and of the migrations, merged: a table
 * several entities use appears once, under the first, with the union of their privileges and
 * columns.
 */
export function collectRequirements(entities: readonly AnyEntity[]): OsticketRequirements[] {
  const groups: { comment: string; tables: OsticketTableRequirement[] }[] = [];
  const seen = new Map<string, { group: OsticketTableRequirement[]; index: number }>();
  const sources = [...new Set(entities)].map((e) => e.osticketRequires);
  for (const { comment, tables } of [...sources, MIGRATION_REQUIREMENTS]) {
    const group: OsticketTableRequirement[] = [];
    for (const requirement of tables) {
      const key = tableName(requirement, '');
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
  return groups;
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
    for (const requirement of tables) {
      if (requirement.note) lines.push(`-- ${requirement.note}`);
      const privileges = union(PRIVILEGES, requirement.privileges, []).join(', ');
      lines.push(
        `GRANT ${privileges} ON osticket.${tableName(requirement, 'ost_')} TO ${account};`,
      );
    }
  }
  return `${lines.join('\n')}\n`;
}
