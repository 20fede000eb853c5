import * as z from 'zod';
import type { TaskListQuery } from '../../data/tasks/task.ts';
import { tasks } from '../../data/tasks/tasks.ts';
import { CREATED_CURSOR } from '../created-cursor.ts';
import { creationDateExample, dateRangeParameters, endBound } from '../date-range.ts';
import { INT32_MAX, integerField } from '../fields.ts';
import { listAnswer, listParameters, listRequest, readList } from '../list-page.ts';
import { requireNotesGrant } from '../notes-grant.ts';
import { defineOperation } from '../operation.ts';
import { TASK_EXAMPLE, taskViewSchema, toTaskView } from '../views/ticket-view.ts';

const paging = listParameters(CREATED_CURSOR, 'Tasks');
const ticketId = integerField(1, INT32_MAX).meta({
  description: 'The ticket the tasks belong to.',
});

export const tasksAllParameters = {
  creationDate: dateRangeParameters({ ticket_id: ticketId.optional(), ...paging }),
  byTicket: z.strictObject({ ticket_id: ticketId, ...paging }),
};

export const tasksAll = defineOperation({
  query: 'tasks',
  condition: 'all',
  methods: ['GET'],
  scope: 'tickets:read',
  summary: 'List tasks by creation time or by ticket',
  description:
    'Needs `tickets:read` and the notes grant (tasks are agent-internal; without it 403 ' +
    '`insufficient_scope`). `sort` `"creationDate"` (the default): tasks created between ' +
    '`start_date` and `end_date` (inclusive), of one ticket when `ticket_id` is given; ' +
    '`"byTicket"`: the tasks of `ticket_id`. One element per task, its own id in `task_id`, in ' +
    '(created, id) order; paged with `limit` / `after` / `next`, and without `limit` every ' +
    'match up to DESKGATE_MAX_LIST, else 400 `too_many_results`.',
  parameters: tasksAllParameters,
  defaultSort: 'creationDate',
  response: z
    .strictObject({
      total: z.int().min(0).meta({ description: 'How many tasks this answer holds.' }),
      tasks: z.array(taskViewSchema),
      next: z
        .string()
        .optional()
        .meta({ description: 'Present when more follow: pass it as `parameters.after`.' }),
    })
    .meta({ description: 'Tasks in (created, id) order.' }),
  responseExample: { total: 1, tasks: [TASK_EXAMPLE] },
  examples: [
    creationDateExample('The tasks created in November 2026', {
      start_date: '2026-11-01',
      end_date: '2026-11-30',
    }),
    {
      name: 'by-ticket',
      summary: 'The tasks of ticket 7',
      sort: 'byTicket',
      parameters: { ticket_id: 7 },
    },
  ],
  uses: [tasks],
  needsNotes: true,
  nothingFound: false,
  errors: ['too_many_results', 'insufficient_scope'],
  async handle({ parameters }, { data, config, apiKey }) {
    requireNotesGrant({ apiKey, config }, 'tasks/all');
    const { elements, next } = await readList(
      listRequest(parameters, config, 'tasks', CREATED_CURSOR),
      (count, after) => {
        const query: TaskListQuery = {
          from: 'start_date' in parameters ? parameters.start_date : undefined,
          to: 'end_date' in parameters ? endBound(parameters.end_date, config.endDate) : undefined,
          ticketId: parameters.ticket_id ?? 0,
          after,
          limit: count,
        };
        return data(tasks).listTasks(query);
      },
      (task) => ({ created: task.created, id: task.id }),
    );
    return listAnswer('tasks', elements.map(toTaskView), next);
  },
});
