import type { Kysely } from 'kysely';
import { type ColumnMap, hasRowWith, readInOrder, selectRows } from '../common/column-map.ts';
import { insertOwnRow } from '../common/insert-returning-id.ts';
import { defineEntity, type OwnHandle, tablesOf } from '../entity.ts';
import { RejectedValueError } from '../store.ts';
import {
  OSTICKET_TEAM_TABLES,
  OSTICKET_TEAMS,
  OWN_TEAMS,
  type OwnTeamTable,
} from './team-tables.ts';

/** A team tickets can be assigned to (team/all): osTicket's `team`. */
export interface Team {
  id: number;
  name: string;
  isEnabled: boolean;
}

export interface NewTeam {
  name: string;
  isEnabled: boolean;
}

/** A team row: deskgate's schema stores the enabled bit alone, osTicket in `flags`. */
export interface TeamRow {
  id: number;
  name: string;
  is_enabled: number | null;
  flags: number | null;
}

export interface TeamData {
  /** Every team, enabled or not (`isEnabled` says), in id order, `limit` at most. */
  list(limit: number): Promise<Team[]>;
  /**
   * `deskgate teams add`: a team of that unique name (RejectedValueError('name') when taken).
   * deskgate's own schema only: in osTicket mode its admin panel adds them.
   */
  readonly addTeam?: (team: NewTeam) => Promise<Team>;
}

/** The reads, written once against a layout's column map. */
function teamReads<Table>(
  db: Kysely<object>,
  map: ColumnMap<Table, TeamRow, Team>,
): Pick<TeamData, 'list'> {
  return {
    list: (limit) => readInOrder(selectRows(db, map), map, ['id'], limit),
  };
}

/** `deskgate teams add`, in a write transaction of its own; a taken name → RejectedValueError. */
async function addOwnTeam({ db, dialect }: OwnHandle, team: NewTeam): Promise<Team> {
  const id = await dialect.writeTransaction(db, async (trx) => {
    if (await hasRowWith(trx, OWN_TEAMS, 'name', team.name)) {
      throw new RejectedValueError('name', 'is already the name of a team');
    }
    return insertOwnRow(tablesOf<{ teams: OwnTeamTable }>(trx), dialect, 'teams', {
      name: team.name,
      is_enabled: team.isEnabled ? 1 : 0,
    });
  });
  return { id, name: team.name, isEnabled: team.isEnabled };
}

export const teams = defineEntity<TeamData>({
  name: 'teams',
  own: (handle) => ({
    ...teamReads(handle.db, OWN_TEAMS),
    addTeam: (team) => addOwnTeam(handle, team),
  }),
  osticket: (handle) => teamReads(handle.db, OSTICKET_TEAMS),
  osticketRequires: { comment: 'teams: read (team/all)', tables: OSTICKET_TEAM_TABLES },
});
