import { z } from 'zod';
import { slaPlans } from '../../data/sla-plans/sla-plans.ts';
import { CATALOGUE_CURSOR } from '../catalogue-cursor.ts';
import { listParameters, readList } from '../list-page.ts';
import { defineOperation } from '../operation.ts';
import { dateRangeParameters, endBound } from '../user-all/date-bound.ts';
import { SLA_EXAMPLE, slaViewSchema, toSlaView } from '../views/catalogue-view.ts';

export const slaAllParameters = {
  creationDate: dateRangeParameters(listParameters(CATALOGUE_CURSOR, 'SLA plans')),
};

export const slaAll = defineOperation({
  query: 'sla',
  condition: 'all',
  methods: ['GET'],
  scope: 'read',
  summary: 'List SLA plans by creation time',
  description:
    'Needs `read`. The SLA plans created between `start_date` and `end_date` (inclusive), in ' +
    '(created, id) order: active plans only unless DESKGATE_CATALOGUE_VISIBILITY=all. Paged ' +
    'with `limit` / `after` / `next`; without `limit` every match up to DESKGATE_MAX_LIST, else ' +
    '400 `too_many_results`.',
  parameters: slaAllParameters,
  defaultSort: 'creationDate',
  response: z
    .strictObject({
      total: z.int().min(0).meta({ description: 'How many plans this answer holds.' }),
      sla: z.array(slaViewSchema),
      next: z
        .string()
        .optional()
        .meta({ description: 'Present when more follow: pass it as `parameters.after`.' }),
    })
    .meta({ description: 'SLA plans in (created, id) order.' }),
  responseExample: { total: 1, sla: [SLA_EXAMPLE] },
  examples: [
    {
      name: 'by-creation-date',
      summary: 'The SLA plans created from 2000 to 2100',
      sort: 'creationDate',
      parameters: { start_date: '2000-01-01', end_date: '2100-12-31' },
    },
  ],
  uses: [slaPlans],
  nothingFound: false,
  errors: ['too_many_results'],
  async handle({ parameters }, { data, config }) {
    const { elements, next } = await readList(
      {
        limit: parameters.limit,
        maxList: config.maxList,
        noun: 'SLA plans',
        cursor: CATALOGUE_CURSOR,
      },
      (count) =>
        data(slaPlans).listSlaPlans({
          order: 'created',
          from: parameters.start_date,
          to: endBound(parameters.end_date, config.endDate),
          visibility: config.catalogueVisibility,
          after: parameters.after,
          limit: count,
        }),
      (plan) => ({ key: plan.created, id: plan.id }),
    );
    return {
      total: elements.length,
      sla: elements.map(toSlaView),
      ...(next === undefined ? {} : { next }),
    };
  },
});
