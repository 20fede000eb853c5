import type { Generated } from 'kysely';
import { type ColumnMap, hasRowWith } from '../common/column-map.ts';
import { insertOwnRow } from '../common/insert-returning-id.ts';
import type { OwnTimestamps } from '../common/own-timestamps.ts';
import { type OwnHandle, tablesOf } from '../entity.ts';
import { RejectedValueError } from '../store.ts';
import type { NewTeam, Team, TeamRow } from './team.ts';

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

/** `deskgate teams add`, in a write transaction of its own; a taken name → RejectedValueError. */
export async function addOwnTeam({ db, dialect }: OwnHandle, team: NewTeam): Promise<Team> {
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
