import * as z from 'zod';
import type { Task } from '../../data/tasks/task.ts';
import type { Ticket, TicketEntry } from '../../data/tickets/ticket.ts';
import { clientRecord } from '../client-records.ts';
import { stripTags } from '../plain-text.ts';
import { flagOf, flagText } from './flag-text.ts';
import { TIMESTAMP } from './view-definition.ts';

const DIGITS = /^[0-9]+$/;
const id = () => z.string().regex(DIGITS);
const time = () => z.string().meta({ description: TIMESTAMP });
const optionalTime = () =>
  z
    .string()
    .nullable()
    .meta({ description: `${TIMESTAMP} null: none.` });

/** One thread entry: the original's entry values under their own `entry_*` keys. */
export const entryViewSchema = z
  .strictObject({
    entry_id: id(),
    entry_pid: id(),
    entry_type: z
      .enum(['M', 'R', 'N'])
      .meta({ description: "M the user's message, R an agent's response, N an internal note." }),
    entry_user_id: id(),
    entry_staff_id: id(),
    entry_poster: z.string(),
    entry_title: z.string().nullable(),
    entry_body: z
      .string()
      .meta({ description: 'Plain text stored HTML-escaped, as osTicket stores a text body.' }),
    entry_format: z.string(),
    entry_source: z.string(),
    entry_ip_address: z.string(),
    entry_created: time(),
  })
  .meta({ description: 'A message, a response, or (for a key with --notes) an internal note.' });
clientRecord(entryViewSchema, 'TicketEntryRecord');

/**
 * A ticket: the original's keys with the ticket's own values (never a thread entry's), its
 * `subject` and `priority`, and its `entries`, oldest first. Values are strings, SQL NULL null.
 */
export const ticketViewSchema = z
  .strictObject({
    ticket_id: id(),
    ticket_pid: id().nullable(),
    number: z.string(),
    user_id: id(),
    user_email_id: id(),
    status_id: id(),
    dept_id: id(),
    sla_id: id(),
    topic_id: id(),
    staff_id: id(),
    team_id: id(),
    email_id: id(),
    lock_id: id(),
    flags: id(),
    sort: id(),
    ip_address: z.string(),
    source: z.string(),
    source_extra: z.string().nullable(),
    isoverdue: flagText(),
    isanswered: flagText(),
    duedate: optionalTime(),
    est_duedate: optionalTime().meta({ description: 'The SLA due time; null: none.' }),
    reopened: optionalTime(),
    closed: optionalTime(),
    lastupdate: optionalTime(),
    created: time(),
    updated: time(),
    subject: z.string(),
    priority_id: id(),
    priority: z.string().meta({ description: 'The priority\'s name, e.g. "Normal".' }),
    entries: z.array(entryViewSchema),
  })
  .meta({ description: 'A ticket with its own columns and its thread.' });
clientRecord(ticketViewSchema, 'TicketRecord');

export type TicketView = z.output<typeof ticketViewSchema>;
export type EntryView = z.output<typeof entryViewSchema>;

function toEntryView(entry: TicketEntry): EntryView {
  return {
    entry_id: String(entry.id),
    entry_pid: String(entry.pid),
    entry_type: entry.type,
    entry_user_id: String(entry.userId),
    entry_staff_id: String(entry.staffId),
    entry_poster: entry.poster,
    entry_title: entry.title,
    entry_body: entry.body,
    entry_format: entry.format,
    entry_source: entry.source,
    entry_ip_address: entry.ipAddress,
    entry_created: entry.created,
  };
}

export function toTicketView(ticket: Ticket): TicketView {
  return {
    ticket_id: String(ticket.id),
    ticket_pid: ticket.pid === null ? null : String(ticket.pid),
    number: ticket.number,
    user_id: String(ticket.userId),
    user_email_id: String(ticket.userEmailId),
    status_id: String(ticket.statusId),
    dept_id: String(ticket.deptId),
    sla_id: String(ticket.slaId),
    topic_id: String(ticket.topicId),
    staff_id: String(ticket.staffId),
    team_id: String(ticket.teamId),
    email_id: String(ticket.emailId),
    lock_id: String(ticket.lockId),
    flags: String(ticket.flags),
    sort: String(ticket.sort),
    ip_address: ticket.ipAddress,
    source: ticket.source,
    source_extra: ticket.sourceExtra,
    isoverdue: flagOf(ticket.isOverdue),
    isanswered: flagOf(ticket.isAnswered),
    duedate: ticket.dueDate,
    est_duedate: ticket.estDueDate,
    reopened: ticket.reopened,
    closed: ticket.closed,
    lastupdate: ticket.lastUpdate,
    created: ticket.created,
    updated: ticket.updated,
    // Never markup, whoever wrote the row (the original stored subjects as sent): decision 324.
    subject: stripTags(ticket.subject),
    priority_id: String(ticket.priorityId),
    priority: ticket.priority,
    entries: ticket.entries.map(toEntryView),
  };
}

export const TICKET_EXAMPLE: TicketView = {
  ticket_id: '7',
  ticket_pid: null,
  number: '000007',
  user_id: '42',
  user_email_id: '0',
  status_id: '1',
  dept_id: '1',
  sla_id: '1',
  topic_id: '0',
  staff_id: '0',
  team_id: '0',
  email_id: '0',
  lock_id: '0',
  flags: '0',
  sort: '0',
  ip_address: '203.0.113.7',
  source: 'API',
  source_extra: null,
  isoverdue: '0',
  isanswered: '0',
  duedate: null,
  est_duedate: '2026-11-23 03:15:02',
  reopened: null,
  closed: null,
  lastupdate: '2026-11-22 09:15:02',
  created: '2026-11-22 09:15:02',
  updated: '2026-11-22 09:15:02',
  subject: 'Printer on fire',
  priority_id: '2',
  priority: 'Normal',
  entries: [
    {
      entry_id: '11',
      entry_pid: '0',
      entry_type: 'M',
      entry_user_id: '42',
      entry_staff_id: '0',
      entry_poster: 'Ann Example',
      entry_title: 'Printer on fire',
      entry_body: 'The printer on floor 2 is on fire.',
      entry_format: 'text',
      entry_source: 'API',
      entry_ip_address: '203.0.113.7',
      entry_created: '2026-11-22 09:15:02',
    },
  ],
};

/** A task: its own columns, strings; `ticket_id` "0" for a task of no ticket. */
export const taskViewSchema = z
  .strictObject({
    task_id: id(),
    number: z.string(),
    ticket_id: id(),
    dept_id: id(),
    staff_id: id(),
    title: z.string(),
    description: z.string(),
    duedate: optionalTime(),
    closed: optionalTime(),
    created: time(),
    updated: time(),
  })
  .meta({ description: 'A task (its own id in task_id, never its thread id).' });
clientRecord(taskViewSchema, 'TaskRecord');

export type TaskView = z.output<typeof taskViewSchema>;

export function toTaskView(task: Task): TaskView {
  return {
    task_id: String(task.id),
    number: task.number,
    ticket_id: String(task.ticketId),
    dept_id: String(task.deptId),
    staff_id: String(task.staffId),
    title: task.title,
    description: task.description,
    duedate: task.dueDate,
    closed: task.closed,
    created: task.created,
    updated: task.updated,
  };
}

export const TASK_EXAMPLE: TaskView = {
  task_id: '3',
  number: '000003',
  ticket_id: '7',
  dept_id: '1',
  staff_id: '0',
  title: 'Replace toner',
  description: 'Floor 2 printer',
  duedate: null,
  closed: null,
  created: '2026-11-22 10:00:00',
  updated: '2026-11-22 10:00:00',
};
