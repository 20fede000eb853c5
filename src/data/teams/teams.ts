import type { Kysely } from 'kysely';
import { type ColumnMap, readInOrder, selectRows } from '../common/column-map.ts';
import { defineEntity } from '../entity.ts';
import { OSTICKET_TEAM_TABLES, OSTICKET_TEAMS } from './osticket-teams.ts';
import { addOwnTeam, OWN_TEAMS } from './own-teams.ts';
import type { NewTeam, Team, TeamRow } from './team.ts';

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

export const teams = defineEntity<TeamData>({
  name: 'teams',
  own: (handle) => ({
    ...teamReads(handle.db, OWN_TEAMS),
    addTeam: (team) => addOwnTeam(handle, team),
  }),
  osticket: (handle) => teamReads(handle.db, OSTICKET_TEAMS),
  osticketRequires: { comment: 'teams: read (team/all)', tables: OSTICKET_TEAM_TABLES },
});
