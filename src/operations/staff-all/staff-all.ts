import * as z from 'zod';
import { type StaffMember, staffDirectory } from '../../data/agents/staff-directory.ts';
import { INT32_MAX, integerField } from '../fields.ts';
import { defineWholeListOperation } from '../read-whole-list.ts';
import { asDigits, asFlag, asText, defineView } from '../views/view-definition.ts';

/** An agent as staff/all answers it. */
export const staffView = defineView<StaffMember>()(
  'StaffRecord',
  'An agent: never its e-mail address or login name.',
  {
    staff_id: asDigits(
      (member) => member.id,
      'The agent id, for `staff_id` and ticket/assign `agent_id`.',
    ),
    name: asText((member) => member.name, 'First and last name, as the staff panel shows them.'),
    dept_id: asDigits((member) => member.deptId, 'The agent’s primary department.'),
    isactive: asFlag((member) => member.isActive, '"1" active, "0" locked.'),
  },
);

export const staffAll = defineWholeListOperation({
  query: 'staff',
  summary:
    'List every agent (id, name, department, active), optionally of one department; never an e-mail address or login name',
  description:
    'Every agent, active or not (`isactive` says), in id order: the id, name, primary ' +
    'department and whether active, never an e-mail address or login name. With `dept_id`, ' +
    'the members of that department (in osTicket mode also the agents given access to it).',
  parameters: z.strictObject({
    dept_id: integerField(1, INT32_MAX)
      .optional()
      .meta({ description: 'Only the members of this department.' }),
  }),
  key: 'staff',
  view: staffView,
  counted: 'agents',
  answers: 'The agents, in id order.',
  example: [{ staff_id: '1', name: 'Alex Agent', dept_id: '1', isactive: '1' }],
  examples: [
    { name: 'all', summary: 'Every agent' },
    { name: 'department', summary: 'The members of department 1', parameters: { dept_id: 1 } },
  ],
  uses: [staffDirectory],
  read: ({ data, parameters }, count) => data(staffDirectory).list(count, parameters.dept_id),
});
