import { requireCapability } from '../../data/osticket/managed-by-osticket.ts';
import { teams } from '../../data/teams/teams.ts';
import { type Command, JSON_OPTION, printJson, UsageError } from '../command.ts';
import { hasControlCharacters } from '../control-characters.ts';
import { usingStore } from '../using-store.ts';
import { teamToJson } from './teams-list.ts';

/** osTicket's `team.name` is a varchar(125). */
const NAME_MAX = 125;

export const teamsAdd: Command = {
  name: 'teams add',
  usage: 'deskgate teams add --name NAME [--disabled] [--database URL] [--json]',
  summary: 'Add a team (deskgate’s own schema; osTicket mode: its admin panel).',
  options: {
    ...JSON_OPTION,
    name: { type: 'string' },
    disabled: { type: 'boolean', default: false },
  },
  positionals: 0,
  async run(input) {
    const { values } = input;
    const name = typeof values.name === 'string' ? values.name.trim() : '';
    if (name === '') throw new UsageError('--name is required');
    if (name.length > NAME_MAX || hasControlCharacters(name)) {
      throw new UsageError(`--name must be 1 to ${NAME_MAX} characters without control characters`);
    }
    const team = await usingStore(input.config, [teams], (store) =>
      requireCapability(
        store.data(teams).addTeam,
        'teams',
      )({
        name,
        isEnabled: values.disabled !== true,
      }),
    );
    if (values.json) printJson(input, teamToJson(team));
    else input.out(`Added team ${team.id} "${team.name}".\n`);
  },
};
