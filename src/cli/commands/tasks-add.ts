import { RejectedValueError } from '../../data/store.ts';
import { tasks } from '../../data/tasks/tasks.ts';
import { type Command, JSON_OPTION, parseId, printJson, UsageError } from '../command.ts';
import { hasControlCharacters, hasControlCharactersInText } from '../control-characters.ts';
import { usingStore } from '../using-store.ts';

/** Options named after the task's fields; a RejectedValueError's field maps back to its option. */
const OPTION_OF: Record<string, string> = {
  ticket_id: 'ticket',
  dept_id: 'dept',
  staff_id: 'staff',
};

export const tasksAdd: Command = {
  name: 'tasks add',
  usage:
    'deskgate tasks add --title TEXT [--description TEXT] [--ticket ID] [--dept ID] [--staff ID] [--json]',
  summary: 'Add a task, of a ticket or of none (tasks/all and tasks/specific read them).',
  options: {
    ...JSON_OPTION,
    title: { type: 'string' },
    description: { type: 'string', default: '' },
    ticket: { type: 'string', default: '0' },
    dept: { type: 'string', default: '1' },
    staff: { type: 'string', default: '0' },
  },
  positionals: 0,
  async run(input) {
    const { values } = input;
    const title = String(values.title ?? '').trim();
    if (title === '' || title.length > 255)
      throw new UsageError('--title is required (1 to 255 characters)');
    if (hasControlCharacters(title))
      throw new UsageError('--title must not contain control characters');
    const description = String(values.description);
    if (hasControlCharactersInText(description))
      throw new UsageError('--description must not contain control characters');
    const optionalId = (value: unknown, option: string) =>
      String(value) === '0' ? 0 : parseId(String(value), option);
    const task = await usingStore(input.config, [tasks], (store) =>
      store
        .data(tasks)
        .createTask({
          title,
          description,
          ticketId: optionalId(values.ticket, '--ticket'),
          deptId: parseId(String(values.dept), '--dept'),
          staffId: optionalId(values.staff, '--staff'),
        })
        .catch((error: unknown) => {
          throw error instanceof RejectedValueError
            ? new UsageError(`--${OPTION_OF[error.field] ?? error.field} ${error.message}`)
            : error;
        }),
    );
    if (values.json) {
      printJson(input, {
        id: task.id,
        number: task.number,
        ticket_id: task.ticketId,
        dept_id: task.deptId,
        staff_id: task.staffId,
        title: task.title,
        description: task.description,
        created: task.created,
      });
    } else input.out(`Added task ${task.id} (number ${task.number}) "${task.title}".\n`);
  },
};
