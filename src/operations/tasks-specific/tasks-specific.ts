import * as z from 'zod';
import { tasks } from '../../data/tasks/tasks.ts';
import { INT32_MAX, integerField } from '../fields.ts';
import { requireNotesGrant } from '../notes-grant.ts';
import { defineOperation } from '../operation.ts';
import { TASK_EXAMPLE, taskViewSchema, toTaskView } from '../views/ticket-view.ts';

export const tasksSpecificParameters = z.strictObject({ id: integerField(1, INT32_MAX) });

export const tasksSpecific = defineOperation({
  query: 'tasks',
  condition: 'specific',
  methods: ['GET'],
  scope: 'tickets:read',
  summary: 'Look up one task, by id',
  description:
    'Needs `tickets:read` and the notes grant (tasks are agent-internal; without it 403 ' +
    "`insufficient_scope`). The task `parameters.id` (the task's own id, not its thread's). " +
    'Not found → 204.',
  parameters: { '*': tasksSpecificParameters },
  response: z
    .strictObject({ total: z.literal(1), tasks: z.array(taskViewSchema).length(1) })
    .meta({ description: 'The task found, as a list of one.' }),
  responseExample: { total: 1, tasks: [TASK_EXAMPLE] },
  examples: [{ name: 'by-id', summary: 'By id', parameters: { id: 3 } }],
  uses: [tasks],
  needsNotes: true,
  nothingFound: true,
  errors: ['insufficient_scope'],
  async handle({ parameters }, { data, apiKey, config }) {
    requireNotesGrant({ apiKey, config }, 'tasks/specific');
    const task = await data(tasks).findTask(parameters.id);
    return task && { total: 1 as const, tasks: [toTaskView(task)] };
  },
});
