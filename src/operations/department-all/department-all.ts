import * as z from 'zod';
import { departments } from '../../data/departments/departments.ts';
import { CATALOGUE_CURSOR } from '../catalogue-cursor.ts';
import { creationDateExample } from '../date-range.ts';
import { listAnswer, listParameters } from '../list-page.ts';
import { defineOperation } from '../operation.ts';
import { creationRangeParameters, readCatalogueList } from '../read-catalogue-list.ts';
import { listResponse } from '../response-shapes.ts';
import {
  DEPARTMENT_EXAMPLE,
  departmentViewSchema,
  toDepartmentView,
} from '../views/catalogue-view.ts';

export const departmentAllParameters = {
  creationDate: creationRangeParameters('Departments'),
  name: z.strictObject(listParameters(CATALOGUE_CURSOR, 'Departments')),
};

export const departmentAll = defineOperation({
  query: 'department',
  condition: 'all',
  methods: ['GET'],
  scope: 'read',
  summary: 'List the departments clients see, by creation time or by name, paged',
  description:
    'Needs `read`. `sort` `"creationDate"` (the default): departments created between ' +
    '`start_date` and `end_date` (inclusive); `"name"`: every department by name. Only what ' +
    'osTicket shows its clients (active and public) unless DESKGATE_CATALOGUE_VISIBILITY=all. ' +
    'Paged with `limit` / `after` / `next`; without `limit` every match up to ' +
    'DESKGATE_MAX_LIST, else 400 `too_many_results`.',
  parameters: departmentAllParameters,
  defaultSort: 'creationDate',
  parametersOptional: true,
  response: listResponse(
    'departments',
    departmentViewSchema,
    'departments',
    'Departments in the order asked for.',
  ),
  responseExample: { total: 1, departments: [DEPARTMENT_EXAMPLE] },
  examples: [
    creationDateExample('The departments created from 2000 to 2100', {
      start_date: '2000-01-01',
      end_date: '2100-12-31',
    }),
    { name: 'by-name', summary: 'Every department by name', sort: 'name', parameters: {} },
  ],
  uses: [departments],
  nothingFound: false,
  errors: ['too_many_results'],
  async handle(selection, { data, config }) {
    const { elements, next } = await readCatalogueList(
      config,
      {
        noun: 'departments',
        order: selection.sort === 'name' ? 'name' : 'created',
        parameters: selection.parameters,
      },
      data(departments),
    );
    return listAnswer('departments', elements.map(toDepartmentView), next);
  },
});
