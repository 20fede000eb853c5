import * as z from 'zod';
import { slaPlans } from '../../data/sla-plans/sla-plans.ts';
import { INT32_MAX, integerField } from '../fields.ts';
import { defineOperation } from '../operation.ts';
import { oneFoundResponse } from '../response-shapes.ts';
import { SLA_EXAMPLE, slaViewSchema, toSlaView } from '../views/catalogue-view.ts';

export const slaSpecificParameters = z.strictObject({ id: integerField(1, INT32_MAX) });

export const slaSpecific = defineOperation({
  query: 'sla',
  condition: 'specific',
  methods: ['GET'],
  scope: 'read',
  summary: 'Look up one SLA plan, by id',
  description:
    'Needs `read`. The SLA plan `parameters.id` when active (any under ' +
    'DESKGATE_CATALOGUE_VISIBILITY=all). Not found → 204. GET only (the original took any method).',
  parameters: { '*': slaSpecificParameters },
  response: oneFoundResponse('sla', slaViewSchema, 'The plan found, as a list of one.'),
  responseExample: { total: 1, sla: [SLA_EXAMPLE] },
  examples: [{ name: 'by-id', summary: 'By id', parameters: { id: 1 } }],
  uses: [slaPlans],
  nothingFound: true,
  async handle({ parameters }, { data, config }) {
    const plan = await data(slaPlans).find(parameters.id, config.catalogueVisibility);
    return plan && { total: 1 as const, sla: [toSlaView(plan)] };
  },
});
