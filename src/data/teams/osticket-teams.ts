import { type ColumnMap, mappedColumns } from '../common/column-map.ts';
import { hasFlag } from '../common/flags.ts';
import { TEAM_ENABLED } from '../osticket/osticket-flags.ts';
import type { OsticketTableRequirement } from '../osticket/osticket-requirements.ts';
import type { Team, TeamRow } from './team.ts';

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
