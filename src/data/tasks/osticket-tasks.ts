import type { Kysely } from 'kysely';
import { keysetPage, pageByTime } from '../common/keyset.ts';
import { type OsticketHandle, tablesOf } from '../entity.ts';
import { managedByOsticket } from '../osticket/managed-by-osticket.ts';
import type { OsticketTableRequirement } from '../osticket/osticket-requirements.ts';
import { byCreatedThenId, notHidden } from '../tickets/hidden-entries.ts';
import type { OsticketTicketTables } from '../tickets/osticket-ticket-tables.ts';
import { formatTimestamp } from '../time.ts';
import type { Task, TaskListQuery } from './task.ts';
import type { TaskData } from './tasks.ts';

type Db = Kysely<OsticketTicketTables>;

function selectTasks(db: Db) {
  return db
    .selectFrom('task')
    .leftJoin('task__cdata', 'task__cdata.task_id', 'task.id')
    .select([
      'task.id',
      'task.object_id',
      'task.object_type',
      'task.number',
      'task.dept_id',
      'task.staff_id',
      'task.duedate',
      'task.closed',
      'task.created',
      'task.updated',
      'task__cdata.title',
    ]);
}

type TaskRow = Awaited<ReturnType<ReturnType<typeof selectTasks>['execute']>>[number];

/**
 * The description is the task thread's (`object_type` A) message: the entry osTicket's
 * Task::create writes from the description field, edited versions replacing the hidden original.
 * Never a note: a task created without a description has none (decision 321).
 */
async function toTasks(db: Db, rows: TaskRow[]): Promise<Task[]> {
  const descriptions = new Map<number, string>();
  if (rows.length > 0) {
    const entries = await db
      .selectFrom('thread')
      .innerJoin('thread_entry', 'thread_entry.thread_id', 'thread.id')
      .select(['thread.object_id', 'thread_entry.id', 'thread_entry.created', 'thread_entry.body'])
      .where('thread.object_type', '=', 'A')
      .where(
        'thread.object_id',
        'in',
        rows.map((row) => Number(row.id)),
      )
      .where('thread_entry.type', '=', 'M')
      .where(notHidden)
      .execute();
    // In osTicket's order (created, then id: an edit keeps the original's `created`), ordered
    // here: ORDER BY over this join sorts the bodies (TEXT) in a temporary table, on disk in
    // MariaDB (issue 34).
    entries.sort(byCreatedThenId);
    for (const entry of entries) {
      const id = Number(entry.object_id);
      if (!descriptions.has(id)) descriptions.set(id, entry.body);
    }
  }
  return rows.map((row) => ({
    id: Number(row.id),
    number: row.number ?? '',
    ticketId: row.object_type === 'T' ? Number(row.object_id) : 0,
    deptId: Number(row.dept_id),
    staffId: Number(row.staff_id),
    title: row.title ?? '',
    description: descriptions.get(Number(row.id)) ?? '',
    dueDate: row.duedate === null ? null : formatTimestamp(row.duedate),
    closed: row.closed === null ? null : formatTimestamp(row.closed),
    created: formatTimestamp(row.created),
    updated: formatTimestamp(row.updated),
  }));
}

export async function findTask(db: Db, id: number): Promise<Task | undefined> {
  return (await toTasks(db, await selectTasks(db).where('task.id', '=', id).execute()))[0];
}

/** The tasks list's order: (created, id). */
const TASKS_BY_CREATED = { key: 'task.created', id: 'task.id' };

export async function listTasks(db: Db, query: TaskListQuery): Promise<Task[]> {
  let select = selectTasks(db);
  if (query.ticketId !== 0) {
    select = select
      .where('task.object_type', '=', 'T')
      .where('task.object_id', '=', query.ticketId);
  }
  const rows = await keysetPage(select, TASKS_BY_CREATED, pageByTime(query)).execute();
  return toTasks(db, rows);
}

export const OSTICKET_TASK_TABLES: readonly OsticketTableRequirement[] = [
  {
    table: 'task',
    privileges: ['SELECT'],
    columns: [
      'id',
      'object_id',
      'object_type',
      'number',
      'dept_id',
      'staff_id',
      'duedate',
      'closed',
      'created',
      'updated',
    ],
  },
  { table: 'task__cdata', privileges: ['SELECT'], columns: ['task_id', 'title'] },
  { table: 'thread', privileges: ['SELECT'], columns: ['id', 'object_id', 'object_type'] },
  {
    table: 'thread_entry',
    privileges: ['SELECT'],
    columns: ['id', 'thread_id', 'type', 'body', 'flags', 'created'],
  },
];

/** Tasks of an osTicket database, read-only: osTicket's agents create them in its panel. */
export function makeOsticketTasks(handle: OsticketHandle): TaskData {
  const db = tablesOf<OsticketTicketTables>(handle.db);
  return {
    findTask: (id) => findTask(db, id),
    listTasks: (query) => listTasks(db, query),
    createTask: managedByOsticket('tasks'),
  };
}
