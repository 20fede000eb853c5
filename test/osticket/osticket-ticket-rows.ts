import type { OsticketDatabase } from './osticket-database.ts';

/**
 * A ticket's answers to osTicket's ticket form as its API stores them: the form entry, the
 * subject and priority values, and the `ticket__cdata` row osTicket keeps from them.
 */
export async function insertTicketFormAnswers(
  db: OsticketDatabase,
  ticketId: number,
  created: string,
  subject: string,
  priority: { id: number; name: string },
): Promise<void> {
  const entryId = await db.insert(
    `INSERT INTO ost_form_entry (form_id, object_id, object_type, sort, extra, created, updated)
     SELECT id, ?, 'T', 0, '{"disable":[]}', ?, ? FROM ost_form WHERE type = 'T'`,
    [ticketId, created, created],
  );
  await db.query(
    `INSERT INTO ost_form_entry_values (entry_id, field_id, value, value_id)
     SELECT ?, f.id, CASE f.name WHEN 'subject' THEN ? ELSE ? END,
       CASE f.name WHEN 'priority' THEN ? ELSE NULL END
     FROM ost_form_field f JOIN ost_form fm ON fm.id = f.form_id
     WHERE fm.type = 'T' AND f.name IN ('subject', 'priority')`,
    [entryId, subject, priority.name, priority.id],
  );
  await db.query('INSERT INTO ost_ticket__cdata (ticket_id, subject, priority) VALUES (?, ?, ?)', [
    ticketId,
    subject,
    String(priority.id),
  ]);
}

/** The priorities and statuses a fresh osTicket 1.18.1 has (its installer's yaml). */
export async function insertTicketLists(db: OsticketDatabase): Promise<void> {
  await db.query(
    `INSERT INTO ost_ticket_priority (priority_id, priority, priority_desc, priority_color, priority_urgency, ispublic)
     VALUES (1,'low','Low','#DDFFDD',4,1),(2,'normal','Normal','#FFFFF0',3,1),
            (3,'high','High','#FEE7E7',2,1),(4,'emergency','Emergency','#FEE7E7',1,1)`,
  );
  await db.query(
    `INSERT INTO ost_ticket_status (id, name, state, mode, flags, sort, properties, created, updated)
     VALUES (1,'Open','open',3,0,1,'{}',NOW(),NOW()),(2,'Resolved','closed',1,0,2,'{}',NOW(),NOW()),
            (3,'Closed','closed',3,0,3,'{}',NOW(),NOW()),(4,'Archived','archived',3,0,4,'{}',NOW(),NOW()),
            (5,'Deleted','deleted',3,0,5,'{}',NOW(),NOW())`,
  );
}

export interface OsticketTicketRows {
  userId: number;
  number: string;
  statusId: number;
  created: string;
  /** When the agent replied (the ticket's `updated` and `lastupdate`). */
  replied: string;
}

/**
 * A ticket with the rows osTicket 1.18.1 writes for an API create, a staff reply and an internal
 * note (tickets.md §3.1, §3.3), the subject and priority in the ticket form's answers. The
 * session must allow the zero `updated` date osTicket writes (`SET SESSION sql_mode = ''`).
 */
export async function insertOsticketTicket(
  db: OsticketDatabase,
  rows: OsticketTicketRows,
): Promise<number> {
  const { userId, number, statusId, created, replied } = rows;
  const ticketId = await db.insert(
    `INSERT INTO ost_ticket (number, user_id, user_email_id, status_id, dept_id, sla_id, topic_id,
       staff_id, team_id, email_id, lock_id, flags, sort, ip_address, source, isoverdue,
       isanswered, duedate, est_duedate, reopened, closed, lastupdate, created, updated)
     VALUES (?, ?, 0, ?, 3, 1, 10, 1, 0, 0, 0, 0, 0, '203.0.113.7', 'API', 0, 1, NULL,
       '2026-11-27 22:00:00', NULL, NULL, ?, ?, ?)`,
    [number, userId, statusId, replied, created, replied],
  );
  const threadId = await db.insert(
    `INSERT INTO ost_thread (object_id, object_type, lastresponse, lastmessage, created)
     VALUES (?, 'T', ?, ?, ?)`,
    [ticketId, replied, created, created],
  );
  const messageId = await db.insert(
    `INSERT INTO ost_thread_entry (pid, thread_id, staff_id, user_id, type, flags, poster, source,
       title, body, format, ip_address, recipients, created, updated)
     VALUES (0, ?, 0, ?, 'M', 65, 'Tess Ticket', 'API', 'Printer on fire',
       '<p>It is on fire.</p>', 'html', '203.0.113.7', NULL, ?, '0000-00-00 00:00:00')`,
    [threadId, userId, created],
  );
  await db.insert(
    `INSERT INTO ost_thread_entry (pid, thread_id, staff_id, user_id, type, flags, poster, source,
       title, body, format, ip_address, created, updated)
     VALUES (?, ?, 1, 0, 'R', 576, 'Alex Agent', '', NULL, '<p>On my way.</p>', 'html',
       '198.51.100.1', ?, '0000-00-00 00:00:00')`,
    [messageId, threadId, replied],
  );
  await db.insert(
    `INSERT INTO ost_thread_entry (pid, thread_id, staff_id, user_id, type, flags, poster, source,
       title, body, format, ip_address, created, updated)
     VALUES (0, ?, 1, 0, 'N', 64, 'Alex Agent', '', 'Internal', 'The user is a VIP.', 'html',
       '198.51.100.1', ?, '0000-00-00 00:00:00')`,
    [threadId, replied],
  );
  await insertTicketFormAnswers(db, ticketId, created, 'Printer on fire', { id: 3, name: 'High' });
  return ticketId;
}

/** A task of a ticket as osTicket's panel writes one: its row, its title, its own thread (A). */
export async function insertOsticketTask(
  db: OsticketDatabase,
  task: { id?: number; ticketId: number; number: string; title: string; created: string },
): Promise<number> {
  const taskId = await db.insert(
    `INSERT INTO ost_task (id, object_id, object_type, number, dept_id, staff_id, team_id, lock_id,
       flags, duedate, closed, created, updated)
     VALUES (?, ?, 'T', ?, 1, 1, 0, 0, 1, NULL, NULL, ?, ?)`,
    [task.id ?? null, task.ticketId, task.number, task.created, task.created],
  );
  const threadId = await db.insert(
    `INSERT INTO ost_thread (object_id, object_type, created) VALUES (?, 'A', ?)`,
    [taskId, task.created],
  );
  await db.insert(
    `INSERT INTO ost_thread_entry (pid, thread_id, staff_id, user_id, type, flags, poster, source,
       title, body, format, ip_address, created, updated)
     VALUES (0, ?, 1, 0, 'M', 1, 'Alex Agent', '', ?, 'Floor 2 printer', 'html', '', ?,
       '0000-00-00 00:00:00')`,
    [threadId, task.title, task.created],
  );
  await db.query('INSERT INTO ost_task__cdata (task_id, title) VALUES (?, ?)', [
    taskId,
    task.title,
  ]);
  return taskId;
}
