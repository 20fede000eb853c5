import {
  type ColumnMap,
  columnOf,
  mappedColumns,
  readRows,
  selectRows,
} from '../common/column-map.ts';
import { defineEntity } from '../entity.ts';

/** A team tickets can be assigned to (team/all): osTicket's `team`. */
export interface Team {
  id: number;
  name: string;
  isEnabled: boolean;
}

/** A team row: deskgate's schema stores the enabled bit alone, osTicket in `flags`. */
interface TeamRow {
  id: number;
  name: string;
  is_enabled: number | null;
  flags: number | null;
}

/** deskgate's `teams` (migration 012). */
export interface OwnTeamTable {
  id: number;
  name: string;
  is_enabled: number;
  created_at: string;
  updated_at: string;
}

/** osTicket 1.18.1's `team` (schema-1.18.1.sql), the columns deskgate reads. */
interface OstTeamTable {
  team_id: number;
  name: string;
  flags: number;
}

/** Team::FLAG_ENABLED (include/class.team.php). */
const FLAG_ENABLED = 0x1;

const OWN_TEAMS: ColumnMap<OwnTeamTable, TeamRow, Team> = {
  table: 'teams',
  columns: { id: 'id', name: 'name', is_enabled: 'is_enabled', flags: null },
  toDomain: (row) => ({
    id: Number(row.id),
    name: row.name,
    isEnabled: Number(row.is_enabled) !== 0,
  }),
};

const OSTICKET_TEAMS: ColumnMap<OstTeamTable, TeamRow, Team> = {
  table: 'team',
  columns: { id: 'team_id', name: 'name', is_enabled: null, flags: 'flags' },
  toDomain: (row) => ({
    id: Number(row.id),
    name: row.name,
    isEnabled: (Number(row.flags) & FLAG_ENABLED) !== 0,
  }),
};

export interface TeamData {
  /** Every team, enabled or not (`isEnabled` says), in id order, `limit` at most. */
  list(limit: number): Promise<Team[]>;
}

function listTeams<Table>(
  handle: { db: Parameters<typeof selectRows>[0] },
  map: ColumnMap<Table, TeamRow, Team>,
): TeamData {
  return {
    list: (limit) =>
      readRows(selectRows(handle.db, map).orderBy(columnOf(map, 'id')).limit(limit), map),
  };
}

export const teams = defineEntity<TeamData>({
  name: 'teams',
  own: (handle) => listTeams(handle, OWN_TEAMS),
  osticket: (handle) => listTeams(handle, OSTICKET_TEAMS),
  osticketRequires: {
    comment: 'teams: read (team/all)',
    tables: [{ table: 'team', privileges: ['SELECT'], columns: mappedColumns(OSTICKET_TEAMS) }],
  },
});
