import * as z from 'zod';
import { departments } from '../../data/departments/departments.ts';
import { INT32_MAX, integerField } from '../fields.ts';
import { defineOperation } from '../operation.ts';
import { oneFoundResponse } from '../response-shapes.ts';
import {
  DEPARTMENT_EXAMPLE,
  departmentViewSchema,
  toDepartmentView,
} from '../views/catalogue-view.ts';

export const departmentSpecificParameters = z.strictObject({ id: integerField(1, INT32_MAX) });

export const departmentSpecific = defineOperation({
  query: 'department',
  condition: 'specific',
  methods: ['GET'],
  scope: 'read',
  summary: 'Look up one department, by id',
  description:
    'Needs `read`. The department `parameters.id`, when osTicket shows it to clients (active ' +
    'and public; any under DESKGATE_CATALOGUE_VISIBILITY=all). Not found → 204.',
  parameters: { '*': departmentSpecificParameters },
  response: oneFoundResponse(
    'departments',
    departmentViewSchema,
    'The department found, as a list of one.',
  ),
  responseExample: { total: 1, departments: [DEPARTMENT_EXAMPLE] },
  examples: [{ name: 'by-id', summary: 'By id', parameters: { id: 1 } }],
  uses: [departments],
  nothingFound: true,
  async handle({ parameters }, { data, config }) {
    const found = await data(departments).find(parameters.id, config.catalogueVisibility);
    return found && { total: 1 as const, departments: [toDepartmentView(found)] };
  },
});
