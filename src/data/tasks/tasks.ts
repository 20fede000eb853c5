import { defineEntity } from '../entity.ts';
import { makeOsticketTasks, OSTICKET_TASK_TABLES } from './osticket-tasks.ts';
import { makeOwnTasks } from './own-tasks.ts';
import type { NewTask, Task, TaskListQuery } from './task.ts';

/** Tasks, as operations and commands see them in every layout. */
export interface TaskData {
  findTask(id: number): Promise<Task | undefined>;
  /** Tasks in (created, id) order, `limit` at most. */
  listTasks(query: TaskListQuery): Promise<Task[]>;
  /**
   * A task (`deskgate tasks add`): its ticket (0: none), department and agent (0: none) checked,
   * RejectedValueError naming the one that does not exist. osTicket mode: UnsupportedInModeError.
   */
  createTask(task: NewTask): Promise<Task>;
}

export const tasks = defineEntity<TaskData>({
  name: 'tasks',
  own: makeOwnTasks,
  osticket: makeOsticketTasks,
  osticketRequires: { comment: 'tasks: read', tables: OSTICKET_TASK_TABLES },
});
