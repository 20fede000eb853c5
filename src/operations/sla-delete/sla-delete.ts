import * as z from 'zod';
import { slaPlans } from '../../data/sla-plans/sla-plans.ts';
import { RejectedValueError } from '../../data/store.ts';
import { writes } from '../../data/writes/writes.ts';
import { writeAdmin } from '../admin-write.ts';
import { INT32_MAX, integerField } from '../fields.ts';
import { DELETE_METHODS, defineOperation } from '../operation.ts';
import { idResponse } from '../response-shapes.ts';

export const slaDeleteParameters = z.strictObject({
  id: integerField(1, INT32_MAX).meta({ description: 'The SLA plan to delete.' }),
});

export const slaDelete = defineOperation({
  query: 'sla',
  condition: 'delete',
  methods: DELETE_METHODS,
  scope: 'admin',
  summary: 'Delete an SLA plan (never the default) and move departments, topics and tickets off it',
  description:
    'Needs `admin`. DELETE as the original (POST accepted too). Deletes one plan as osTicket ' +
    'does, in one transaction: never the default plan (400); departments and help topics on ' +
    'it go to 0 (the help desk default), its tickets to the default plan. Answers the deleted ' +
    "plan's id; a plan that does not exist → 204.",
  parameters: { '*': slaDeleteParameters },
  response: idResponse('The deleted plan id.', '2'),
  responseExample: '2',
  examples: [{ name: 'sla-delete', summary: 'Delete plan 2', parameters: { id: 2 } }],
  uses: [slaPlans, writes],
  nothingFound: true,
  async handle({ parameters }, context) {
    const { id } = parameters;
    if (!(await context.data(slaPlans).find(id, 'all'))) return undefined;
    return writeAdmin(context, {
      run: async (trx) => {
        if (!(await context.data(slaPlans).deleteSlaPlan(trx, id))) {
          throw new RejectedValueError('id', 'is not an existing SLA plan');
        }
        return id;
      },
      targetId: (deleted) => String(deleted),
      outcome: (deleted) => `deleted SLA plan ${deleted}`,
      answer: (deleted) => String(deleted),
    });
  },
});
