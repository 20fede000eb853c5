import { type Team, teams } from '../../data/teams/teams.ts';
import { defineWholeListOperation } from '../read-whole-list.ts';
import { asDigits, asFlag, asText, defineView } from '../views/view-definition.ts';

/** A team as team/all answers it. */
export const teamView = defineView<Team>()('TeamRecord', 'A team (values as strings).', {
  team_id: asDigits((team) => team.id, 'The team id, for ticket/assign `team_id`.'),
  name: asText((team) => team.name, 'Its name.'),
  isenabled: asFlag((team) => team.isEnabled, '"1" enabled, "0" disabled.'),
});

export const teamAll = defineWholeListOperation({
  query: 'team',
  summary: 'List every team, enabled or not',
  description: 'Every team, enabled or not (`isenabled` says), in id order.',
  key: 'teams',
  view: teamView,
  answers: 'The teams, in id order.',
  example: [{ team_id: '1', name: 'Level I Support', isenabled: '1' }],
  examples: [{ name: 'all', summary: 'Every team' }],
  uses: [teams],
  read: ({ data }, count) => data(teams).list(count),
});
