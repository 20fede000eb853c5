import type { OstTicketPriorityTable } from '../ticket-priorities/ticket-priority-tables.ts';

/** osTicket 1.18.1's ticket tables, the columns deskgate reads (schema-1.18.1.sql). */
export interface OstTicketTable {
  ticket_id: number;
  ticket_pid: number | null;
  number: string | null;
  user_id: number;
  user_email_id: number;
  status_id: number;
  dept_id: number;
  sla_id: number;
  topic_id: number;
  staff_id: number;
  team_id: number;
  email_id: number;
  lock_id: number;
  flags: number;
  sort: number;
  ip_address: string;
  source: string;
  source_extra: string | null;
  isoverdue: number;
  isanswered: number;
  duedate: string | null;
  est_duedate: string | null;
  reopened: string | null;
  closed: string | null;
  lastupdate: string | null;
  created: string;
  updated: string;
}

/** A thread belongs to a ticket (`object_type` T), a task (A), … */
export interface OstThreadTable {
  id: number;
  object_id: number;
  object_type: string;
}

export interface OstThreadEntryTable {
  id: number;
  pid: number;
  thread_id: number;
  staff_id: number;
  user_id: number;
  type: string;
  poster: string;
  source: string;
  title: string | null;
  body: string;
  format: string;
  ip_address: string;
  created: string;
  /** osTicket's ThreadEntry::FLAG_* bits; 0x4 (hidden) marks an original an agent edited. */
  flags: number;
}

export interface OstTicketCdataTable {
  ticket_id: number;
  subject: string | null;
  priority: string | null;
}

export interface OstTaskTable {
  id: number;
  object_id: number;
  object_type: string;
  number: string | null;
  dept_id: number;
  staff_id: number;
  duedate: string | null;
  closed: string | null;
  created: string;
  updated: string;
}

export interface OstTaskCdataTable {
  task_id: number;
  title: string | null;
}

/** The ticket form's answers: the columns the subject and priority are read from. */
export interface OstFormTables {
  form: { id: number; type: string };
  form_field: { id: number; form_id: number; name: string };
  form_entry: { id: number; form_id: number; object_id: number | null; object_type: string };
  form_entry_values: {
    entry_id: number;
    field_id: number;
    value: string | null;
    value_id: number | null;
  };
}

export interface OsticketTicketTables extends OstFormTables {
  ticket: OstTicketTable;
  thread: OstThreadTable;
  thread_entry: OstThreadEntryTable;
  ticket_priority: OstTicketPriorityTable;
  ticket__cdata: OstTicketCdataTable;
  task: OstTaskTable;
  task__cdata: OstTaskCdataTable;
}
