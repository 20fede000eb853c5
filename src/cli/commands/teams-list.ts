import { type Team, teams } from '../../data/teams/teams.ts';
import { type Command, JSON_OPTION, printResult } from '../command.ts';
import { formatTable } from '../format-table.ts';
import { usingStore } from '../using-store.ts';
import { CATALOGUE_COMMAND_MAX } from './statuses-list.ts';

/** A team as `--json` prints it. */
export function teamToJson(team: Team) {
  return { id: team.id, name: team.name, enabled: team.isEnabled };
}

export const teamsList: Command = {
  name: 'teams list',
  usage: 'deskgate teams list [--database URL] [--json]',
  summary: 'List every team, disabled ones too (as team/all).',
  options: JSON_OPTION,
  positionals: 0,
  async run(input) {
    const list = await usingStore(input.config, [teams], (store) =>
      store.data(teams).list(CATALOGUE_COMMAND_MAX),
    );
    printResult(input, list.map(teamToJson), () =>
      formatTable(
        ['ID', 'NAME', 'ENABLED'],
        list.map((t) => [String(t.id), t.name, t.isEnabled ? 'yes' : 'no']),
      ),
    );
  },
};
