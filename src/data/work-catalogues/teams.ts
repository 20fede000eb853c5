import type { Generated } from 'kysely';
import {
  type ColumnMap,
  columnOf,
  hasRowWith,
  mappedColumns,
  readRows,
  selectRows,
} from '../common/column-map.ts';
import { insertReturningId } from '../common/insert-returning-id.ts';
import { defineEntity, type OwnHandle, tablesOf } from '../entity.ts';
import { RejectedValueError } from '../store.ts';
import { now } from '../time.ts';

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
  id: Generated<number>;
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
  /**
   * `deskgate teams add`: a team of that unique name (RejectedValueError('name') when taken).
   * deskgate's own schema only: in osTicket mode its admin panel adds them.
   */
  readonly addTeam?: (team: { name: string; isEnabled: boolean }) => Promise<Team>;
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

/** A team on deskgate's own schema, in a write transaction of its own; the new team as listed. */
async function addOwnTeam(
  { db, dialect }: OwnHandle,
  team: { name: string; isEnabled: boolean },
): Promise<Team> {
  const id = await dialect.writeTransaction(db, async (trx) => {
    if (await hasRowWith(trx, OWN_TEAMS, 'name', team.name)) {
      throw new RejectedValueError('name', 'is already the name of a team');
    }
    const at = now();
    return insertReturningId(
      tablesOf<{ teams: OwnTeamTable }>(trx)
        .insertInto('teams')
        .values({
          name: team.name,
          is_enabled: team.isEnabled ? 1 : 0,
          created_at: at,
          updated_at: at,
        }),
      dialect,
    );
  });
  return { id, name: team.name, isEnabled: team.isEnabled };
}

export const teams = defineEntity<TeamData>({
  name: 'teams',
  own: (handle) => ({
    ...listTeams(handle, OWN_TEAMS),
    addTeam: (team) => addOwnTeam(handle, team),
  }),
  osticket: (handle) => listTeams(handle, OSTICKET_TEAMS),
  osticketRequires: {
    comment: 'teams: read (team/all)',
    tables: [{ table: 'team', privileges: ['SELECT'], columns: mappedColumns(OSTICKET_TEAMS) }],
  },
});
