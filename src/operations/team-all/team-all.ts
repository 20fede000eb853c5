import { z } from 'zod';
import { type Team, teams } from '../../data/teams/teams.ts';
import { clientRecord } from '../client-records.ts';
import { defineOperation, NO_SORT } from '../operation.ts';
import { answerWholeList } from '../read-whole-list.ts';
import { wholeListResponse } from '../response-shapes.ts';
import { digitsText } from '../views/digits-text.ts';
import { flagOf, flagText } from '../views/flag-text.ts';

export const teamViewSchema = z
  .strictObject({
    team_id: digitsText('The team id, for ticket/assign `team_id`.'),
    name: z.string().meta({ description: 'Its name.' }),
    isenabled: flagText('"1" enabled, "0" disabled.'),
  })
  .meta({ description: 'A team (values as strings).' });
clientRecord(teamViewSchema, 'TeamRecord');

/** A team as team/all answers it. */
function toTeamView(team: Team): z.output<typeof teamViewSchema> {
  return {
    team_id: String(team.id),
    name: team.name,
    isenabled: flagOf(team.isEnabled),
  };
}

export const teamAll = defineOperation({
  query: 'team',
  condition: 'all',
  methods: ['GET'],
  scope: 'tickets:read',
  summary: 'List the teams',
  description:
    'Needs `tickets:read`. Every team, enabled or not (`isenabled` says), in id order. Every ' +
    'match up to DESKGATE_MAX_LIST, else 400 `too_many_results`.',
  parameters: { [NO_SORT]: z.strictObject({}) },
  parametersOptional: true,
  response: wholeListResponse('teams', teamViewSchema, 'teams', 'The teams, in id order.'),
  responseExample: {
    total: 1,
    teams: [{ team_id: '1', name: 'Level I Support', isenabled: '1' }],
  },
  examples: [{ name: 'all', summary: 'Every team' }],
  uses: [teams],
  nothingFound: false,
  errors: ['too_many_results'],
  handle: (_selection, { data, config }) =>
    answerWholeList(config, { noun: 'teams', key: 'teams', toView: toTeamView }, (count) =>
      data(teams).list(count),
    ),
});
