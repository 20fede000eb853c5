import { slaPlans } from '../../data/sla-plans/sla-plans.ts';
import { creationDateExample } from '../date-range.ts';
import { listAnswer } from '../list-page.ts';
import { defineOperation } from '../operation.ts';
import { creationRangeParameters, readCatalogueList } from '../read-catalogue-list.ts';
import { listResponse } from '../response-shapes.ts';
import { SLA_EXAMPLE, slaViewSchema, toSlaView } from '../views/catalogue-view.ts';

export const slaAllParameters = { creationDate: creationRangeParameters('SLA plans') };

export const slaAll = defineOperation({
  query: 'sla',
  condition: 'all',
  methods: ['GET'],
  scope: 'read',
  summary: 'List SLA plans by creation time, paged',
  description:
    'Needs `read`. The SLA plans created between `start_date` and `end_date` (inclusive), in ' +
    '(created, id) order: active plans only unless DESKGATE_CATALOGUE_VISIBILITY=all. Paged ' +
    'with `limit` / `after` / `next`; without `limit` every match up to DESKGATE_MAX_LIST, else ' +
    '400 `too_many_results`.',
  parameters: slaAllParameters,
  defaultSort: 'creationDate',
  response: listResponse('sla', slaViewSchema, 'plans', 'SLA plans in (created, id) order.'),
  responseExample: { total: 1, sla: [SLA_EXAMPLE] },
  examples: [
    creationDateExample('The SLA plans created from 2000 to 2100', {
      start_date: '2000-01-01',
      end_date: '2100-12-31',
    }),
  ],
  uses: [slaPlans],
  nothingFound: false,
  errors: ['too_many_results'],
  async handle({ parameters }, { data, config }) {
    const { elements, next } = await readCatalogueList(
      config,
      { noun: 'SLA plans', order: 'created', parameters },
      data(slaPlans),
    );
    return listAnswer('sla', elements.map(toSlaView), next);
  },
});
