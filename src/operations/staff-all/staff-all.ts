import { z } from 'zod';
import { type StaffMember, staffDirectory } from '../../data/agents/staff-directory.ts';
import { clientRecord } from '../client-records.ts';
import { INT32_MAX, integerField } from '../fields.ts';
import { defineOperation, NO_SORT } from '../operation.ts';
import { answerWholeList } from '../read-whole-list.ts';
import { wholeListResponse } from '../response-shapes.ts';
import { digitsText } from '../views/digits-text.ts';
import { flagOf, flagText } from '../views/flag-text.ts';

export const staffViewSchema = z
  .strictObject({
    staff_id: digitsText('The agent id, for `staff_id` and ticket/assign `agent_id`.'),
    name: z.string().meta({ description: 'First and last name, as the staff panel shows them.' }),
    dept_id: digitsText('The agent’s primary department.'),
    isactive: flagText('"1" active, "0" locked.'),
  })
  .meta({ description: 'An agent: never its e-mail address or login name.' });
clientRecord(staffViewSchema, 'StaffRecord');

/** An agent as staff/all answers it. */
function toStaffView(member: StaffMember): z.output<typeof staffViewSchema> {
  return {
    staff_id: String(member.id),
    name: member.name,
    dept_id: String(member.deptId),
    isactive: flagOf(member.isActive),
  };
}

/** Its parameters, by `sort` (it takes none). */
export const staffAllParameters = {
  [NO_SORT]: z.strictObject({
    dept_id: integerField(1, INT32_MAX)
      .optional()
      .meta({ description: 'Only the members of this department.' }),
  }),
};

export const staffAll = defineOperation({
  query: 'staff',
  condition: 'all',
  methods: ['GET'],
  scope: 'tickets:read',
  summary: 'List the agents',
  description:
    'Needs `tickets:read`. Every agent, active or not (`isactive` says), in id order: the ' +
    'id, name, primary department and whether active, never an e-mail address or login name. ' +
    'With `dept_id`, the members of that department (in osTicket mode also the agents given ' +
    'access to it). Every match up to DESKGATE_MAX_LIST, else 400 `too_many_results`.',
  parameters: staffAllParameters,
  parametersOptional: true,
  response: wholeListResponse('staff', staffViewSchema, 'agents', 'The agents, in id order.'),
  responseExample: {
    total: 1,
    staff: [{ staff_id: '1', name: 'Alex Agent', dept_id: '1', isactive: '1' }],
  },
  examples: [
    { name: 'all', summary: 'Every agent' },
    { name: 'department', summary: 'The members of department 1', parameters: { dept_id: 1 } },
  ],
  uses: [staffDirectory],
  nothingFound: false,
  errors: ['too_many_results'],
  handle: ({ parameters }, { data, config }) =>
    answerWholeList(config, { noun: 'agents', key: 'staff', toView: toStaffView }, (count) =>
      data(staffDirectory).list(count, parameters.dept_id),
    ),
});
