import { sql } from 'kysely';
import { rowExists } from '../common/row-exists.ts';
import { type OsticketHandle, tablesOf } from '../entity.ts';
import type { OsticketTableRequirement } from '../osticket/osticket-requirements.ts';
import type { HelpDeskChoices, TicketInputData } from './ticket-inputs.ts';

interface Tables {
  user: { id: number; name: string; default_email_id: number };
  user_email: { id: number; user_id: number; address: string };
  help_topic: {
    topic_id: number;
    dept_id: number;
    sla_id: number;
    status_id: number;
    flags: number;
  };
  department: { id: number; sla_id: number };
  config: { namespace: string; key: string; value: string };
  ticket_priority: { priority_id: number };
  staff: { staff_id: number; username: string };
  ticket: { ticket_id: number; number: string | null; user_id: number; created: string };
  thread: { id: number; object_id: number; object_type: string };
  thread_entry: { id: number; thread_id: number; staff_id: number; type: string; created: string };
}

/** Topic::FLAG_ACTIVE: osTicket treats a topic without it as none (Ticket::create). */
const TOPIC_ACTIVE = 0x2;

export function makeOsticketTicketInputs(handle: OsticketHandle): TicketInputData {
  const db = tablesOf<Tables>(handle.db);
  const setting = async (key: string): Promise<number> => {
    const row = await db
      .selectFrom('config')
      .select('value')
      .where('namespace', '=', 'core')
      .where('key', '=', key)
      .executeTakeFirst();
    return Number(row?.value ?? 0) || 0;
  };
  const topic = (topicId: number) =>
    db
      .selectFrom('help_topic')
      .select(['topic_id', 'dept_id', 'sla_id', 'status_id', 'flags'])
      .where('topic_id', '=', topicId)
      .executeTakeFirst();
  return {
    async contactOf(userId) {
      const row = await db
        .selectFrom('user')
        .innerJoin('user_email', 'user_email.id', 'user.default_email_id')
        .select(['user.name', 'user_email.address'])
        .where('user.id', '=', userId)
        .executeTakeFirst();
      return row && { email: row.address, name: row.name };
    },
    // Ticket::create (include/class.ticket.php:4239-4354) and selectSLAId (1456-1472).
    async choicesFor(topicId): Promise<HelpDeskChoices | undefined> {
      const asked = topicId === 0 ? undefined : await topic(topicId);
      if (topicId !== 0 && !asked) return undefined;
      const chosen =
        asked ?? (await topic(await setting('default_help_topic').then((id) => id || -1)));
      const active = chosen && (Number(chosen.flags) & TOPIC_ACTIVE) !== 0 ? chosen : undefined;
      const deptId = Number(active?.dept_id ?? 0) || (await setting('default_dept_id'));
      const dept = await db
        .selectFrom('department')
        .select('sla_id')
        .where('id', '=', deptId)
        .executeTakeFirst();
      return {
        topicId: Number(active?.topic_id ?? 0),
        deptId,
        slaId:
          Number(active?.sla_id ?? 0) ||
          Number(dept?.sla_id ?? 0) ||
          (await setting('default_sla_id')),
        statusId:
          Number(active?.status_id ?? 0) || (await setting('default_ticket_status_id')) || 1,
      };
    },
    priorityExists: (priorityId) => rowExists(db, 'ticket_priority', 'priority_id', priorityId),
    async agentUsername(staffId) {
      const row = await db
        .selectFrom('staff')
        .select('username')
        .where('staff_id', '=', staffId)
        .executeTakeFirst();
      return row?.username;
    },
    async ticketIdByNumber(number, userId) {
      const row = await db
        .selectFrom('ticket')
        .select('ticket_id')
        .where('number', '=', number)
        .where('user_id', '=', userId)
        .orderBy('ticket_id', 'desc')
        .limit(1)
        .executeTakeFirst();
      return row && Number(row.ticket_id);
    },
    async recentTicketIds(userId, seconds) {
      const rows = await db
        .selectFrom('ticket')
        .select('ticket_id')
        .where('user_id', '=', userId)
        .where('created', '>=', sql<string>`NOW() - INTERVAL ${seconds} SECOND`)
        .orderBy('ticket_id')
        .execute();
      return rows.map((row) => Number(row.ticket_id));
    },
    async recentEntryIds(ticketId, staffId, type, seconds) {
      const rows = await db
        .selectFrom('thread_entry')
        .innerJoin('thread', 'thread.id', 'thread_entry.thread_id')
        .select('thread_entry.id')
        .where('thread.object_type', '=', 'T')
        .where('thread.object_id', '=', ticketId)
        .where('thread_entry.staff_id', '=', staffId)
        .where('thread_entry.type', '=', type)
        .where('thread_entry.created', '>=', sql<string>`NOW() - INTERVAL ${seconds} SECOND`)
        .orderBy('thread_entry.id')
        .execute();
      return rows.map((row) => Number(row.id));
    },
  };
}

export const OSTICKET_TICKET_INPUT_TABLES: readonly OsticketTableRequirement[] = [
  { table: 'user', privileges: ['SELECT'], columns: ['id', 'name', 'default_email_id'] },
  { table: 'user_email', privileges: ['SELECT'], columns: ['id', 'address'] },
  {
    table: 'help_topic',
    privileges: ['SELECT'],
    columns: ['topic_id', 'dept_id', 'sla_id', 'status_id', 'flags'],
  },
  { table: 'department', privileges: ['SELECT'], columns: ['id', 'sla_id'] },
  { table: 'config', privileges: ['SELECT'], columns: ['namespace', 'key', 'value'] },
  { table: 'ticket_priority', privileges: ['SELECT'], columns: ['priority_id'] },
  { table: 'staff', privileges: ['SELECT'], columns: ['staff_id', 'username'] },
  {
    table: 'ticket',
    privileges: ['SELECT'],
    columns: ['ticket_id', 'number', 'user_id', 'created'],
  },
  { table: 'thread', privileges: ['SELECT'], columns: ['id', 'object_id', 'object_type'] },
  {
    table: 'thread_entry',
    privileges: ['SELECT'],
    columns: ['id', 'thread_id', 'staff_id', 'type', 'created'],
  },
];
