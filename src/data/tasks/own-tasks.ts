import type { Generated, Kysely, Selectable } from 'kysely';
import { insertReturningId } from '../common/insert-returning-id.ts';
import { keysetPage, pageByTime } from '../common/keyset.ts';
import { createdAt, type OwnTimestamps } from '../common/own-timestamps.ts';
import type { Dialect } from '../dialects/dialect.ts';
import { type OwnHandle, tablesOf } from '../entity.ts';
import { appendEvents } from '../events/events.ts';
import { eventActor } from '../events/write-origin.ts';
import { RejectedValueError } from '../store.ts';
import { takeNextNumber } from '../tickets/count-next.ts';
import type { OwnTicketTables } from '../tickets/own-tickets.ts';
import { formatTimestamp, now } from '../time.ts';
import type { NewTask, Task, TaskListQuery } from './task.ts';
import type { TaskData } from './tasks.ts';

export interface TaskTable extends OwnTimestamps {
  id: Generated<number>;
  number: string;
  ticket_id: number;
  dept_id: number;
  staff_id: number;
  title: string;
  description: string;
  due_at: string | null;
  closed_at: string | null;
}

type Db = Kysely<OwnTicketTables>;

function toTask(row: Selectable<TaskTable>): Task {
  return {
    id: Number(row.id),
    number: row.number,
    ticketId: Number(row.ticket_id),
    deptId: Number(row.dept_id),
    staffId: Number(row.staff_id),
    title: row.title,
    description: row.description,
    dueDate: row.due_at === null ? null : formatTimestamp(row.due_at),
    closed: row.closed_at === null ? null : formatTimestamp(row.closed_at),
    created: formatTimestamp(row.created_at),
    updated: formatTimestamp(row.updated_at),
  };
}

export async function findTask(db: Db, id: number): Promise<Task | undefined> {
  const row = await db.selectFrom('tasks').selectAll().where('id', '=', id).executeTakeFirst();
  return row && toTask(row);
}

/** The tasks list's order: (created, id). */
const TASKS_BY_CREATED = { key: 'created_at', id: 'id' };

/** Tasks in (created, id) order. */
export async function listTasks(db: Db, query: TaskListQuery): Promise<Task[]> {
  let select = db.selectFrom('tasks').selectAll();
  if (query.ticketId !== 0) select = select.where('ticket_id', '=', query.ticketId);
  const rows = await keysetPage(select, TASKS_BY_CREATED, pageByTime(query)).execute();
  return rows.map(toTask);
}

async function ticketOf(trx: Db, id: number): Promise<{ id: number; number: string }> {
  const row = await trx
    .selectFrom('tickets')
    .select('number')
    .where('id', '=', id)
    .executeTakeFirst();
  return { id, number: row?.number ?? '' };
}

/** A task (`deskgate tasks add`): its ticket (0: none), department and agent (0: unassigned) checked. */
export async function createTask(db: Db, dialect: Dialect, task: NewTask): Promise<Task> {
  const id = await dialect.writeTransaction(db, async (trx) => {
    if (task.ticketId !== 0) {
      const ticket = await trx
        .selectFrom('tickets')
        .select('id')
        .where('id', '=', task.ticketId)
        .executeTakeFirst();
      if (!ticket) throw new RejectedValueError('ticket_id', 'is not an existing ticket');
    }
    const department = await trx
      .selectFrom('departments')
      .select('id')
      .where('id', '=', task.deptId)
      .executeTakeFirst();
    if (!department) throw new RejectedValueError('dept_id', 'is not an existing department');
    if (task.staffId !== 0) {
      const agent = await trx
        .selectFrom('agents')
        .select('id')
        .where('id', '=', task.staffId)
        .executeTakeFirst();
      if (!agent) throw new RejectedValueError('staff_id', 'is not an existing agent');
    }
    const at = now();
    const number = await takeNextNumber(trx, 'task');
    const id = await insertReturningId(
      trx.insertInto('tasks').values({
        number,
        ticket_id: task.ticketId,
        dept_id: task.deptId,
        staff_id: task.staffId,
        title: task.title,
        description: task.description,
        due_at: null,
        closed_at: null,
        ...createdAt(at),
      }),
      dialect,
    );
    // Last before the COMMIT: its sequence number is taken as late as it can be (decision 381).
    await appendEvents(trx, dialect.name, [
      {
        type: 'task.created',
        occurredAt: at,
        ticket: task.ticketId === 0 ? undefined : await ticketOf(trx, task.ticketId),
        actor: eventActor(),
        data: { task: { id, number }, dept_id: task.deptId, staff_id: task.staffId },
      },
    ]);
    return id;
  });
  const created = await findTask(db, id);
  if (!created) throw new Error(`task ${id} vanished after its creation`);
  return created;
}

/** Tasks on deskgate's own schema. */
export function makeOwnTasks(handle: OwnHandle): TaskData {
  const db = tablesOf<OwnTicketTables>(handle.db);
  return {
    findTask: (id) => findTask(db, id),
    listTasks: (query) => listTasks(db, query),
    createTask: (task) => createTask(db, handle.dialect, task),
  };
}
