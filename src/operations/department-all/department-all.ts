import { z } from 'zod';
import { departments } from '../../data/departments/departments.ts';
import { CATALOGUE_CURSOR } from '../catalogue-cursor.ts';
import { listParameters, readList } from '../list-page.ts';
import { defineOperation } from '../operation.ts';
import { dateRangeParameters, endBound } from '../user-all/date-bound.ts';
import {
  DEPARTMENT_EXAMPLE,
  departmentViewSchema,
  toDepartmentView,
} from '../views/catalogue-view.ts';

const paging = listParameters(CATALOGUE_CURSOR, 'Departments');

export const departmentAllParameters = {
  creationDate: dateRangeParameters(paging),
  name: z.strictObject({ ...paging }),
};

export const departmentAll = defineOperation({
  query: 'department',
  condition: 'all',
  methods: ['GET'],
  scope: 'read',
  summary: 'List departments by creation time or by name',
  description:
    'Needs `read`. `sort` `"creationDate"` (the default): departments created between ' +
    '`start_date` and `end_date` (inclusive); `"name"`: every department by name. Only what ' +
    'osTicket shows its clients (active and public) unless DESKGATE_CATALOGUE_VISIBILITY=all. ' +
    'Paged with `limit` / `after` / `next`; without `limit` every match up to ' +
    'DESKGATE_MAX_LIST, else 400 `too_many_results`.',
  parameters: departmentAllParameters,
  defaultSort: 'creationDate',
  parametersOptional: true,
  response: z
    .strictObject({
      total: z.int().min(0).meta({ description: 'How many departments this answer holds.' }),
      departments: z.array(departmentViewSchema),
      next: z
        .string()
        .optional()
        .meta({ description: 'Present when more follow: pass it as `parameters.after`.' }),
    })
    .meta({ description: 'Departments in the order asked for.' }),
  responseExample: { total: 1, departments: [DEPARTMENT_EXAMPLE] },
  examples: [
    {
      name: 'by-creation-date',
      summary: 'The departments created from 2000 to 2100',
      sort: 'creationDate',
      parameters: { start_date: '2000-01-01', end_date: '2100-12-31' },
    },
    { name: 'by-name', summary: 'Every department by name', sort: 'name', parameters: {} },
  ],
  uses: [departments],
  nothingFound: false,
  errors: ['too_many_results'],
  async handle(selection, { data, config }) {
    const { parameters } = selection;
    const byName = selection.sort === 'name';
    const { elements, next } = await readList(
      {
        limit: parameters.limit,
        maxList: config.maxList,
        noun: 'departments',
        cursor: CATALOGUE_CURSOR,
      },
      (count) =>
        data(departments).listDepartments({
          order: byName ? 'name' : 'created',
          from: 'start_date' in parameters ? parameters.start_date : undefined,
          to: 'end_date' in parameters ? endBound(parameters.end_date, config.endDate) : undefined,
          visibility: config.catalogueVisibility,
          after: parameters.after,
          limit: count,
        }),
      (department) => ({ key: byName ? department.name : department.created, id: department.id }),
    );
    return {
      total: elements.length,
      departments: elements.map(toDepartmentView),
      ...(next === undefined ? {} : { next }),
    };
  },
});
