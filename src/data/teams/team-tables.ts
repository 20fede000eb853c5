import type { Generated } from 'kysely';
import { type ColumnMap, mappedColumns } from '../common/column-map.ts';
import { hasFlag } from '../common/flags.ts';
import type { OwnTimestamps } from '../common/own-timestamps.ts';
import { TEAM_ENABLED } from '../osticket/osticket-flags.ts';
import type { OsticketTableRequirement } from '../osticket/osticket-requirements.ts';
import type { Team, TeamRow } from './teams.ts';

/** deskgate's `teams` (migration 012). */
export interface OwnTeamTable extends OwnTimestamps {
  id: Generated<number>;
  name: string;
  is_enabled: number;
}

export const OWN_TEAMS: ColumnMap<OwnTeamTable, TeamRow, Team> = {
  table: 'teams',
  columns: { id: 'id', name: 'name', is_enabled: 'is_enabled', flags: null },
  toDomain: (row) => ({
    id: Number(row.id),
    name: row.name,
    isEnabled: Number(row.is_enabled) !== 0,
  }),
};

/** osTicket 1.18.1's `team` (schema-1.18.1.sql), the columns deskgate reads. */
export interface OstTeamTable {
  team_id: number;
  name: string;
  /** Bit 1: enabled (Team::FLAG_ENABLED). */
  flags: number;
}

export const OSTICKET_TEAMS: ColumnMap<OstTeamTable, TeamRow, Team> = {
  table: 'team',
  columns: { id: 'team_id', name: 'name', is_enabled: null, flags: 'flags' },
  toDomain: (row) => ({
    id: Number(row.id),
    name: row.name,
    isEnabled: hasFlag(row.flags, TEAM_ENABLED),
  }),
};

export const OSTICKET_TEAM_TABLES: readonly OsticketTableRequirement[] = [
  { table: 'team', privileges: ['SELECT'], columns: mappedColumns(OSTICKET_TEAMS) },
];
