import type { Kysely } from 'kysely';
import type { Dialect } from '../dialects/dialect.ts';
import { createIndexIfMissing, TIMESTAMP, withCharset, withId } from './column-types.ts';

/** Seed rows as a fresh osTicket 1.18.1 has them (include/i18n/en_US/*.yaml). */
const STATUSES = [
  { id: 1, name: 'Open', state: 'open', sort: 1 },
  { id: 2, name: 'Resolved', state: 'closed', sort: 2 },
  { id: 3, name: 'Closed', state: 'closed', sort: 3 },
  { id: 4, name: 'Archived', state: 'archived', sort: 4 },
  { id: 5, name: 'Deleted', state: 'deleted', sort: 5 },
];
const PRIORITIES = [
  { id: 1, name: 'Low', color: '#DDFFDD', urgency: 4, is_public: 1 },
  { id: 2, name: 'Normal', color: '#FFFFF0A', urgency: 3, is_public: 1 },
  { id: 3, name: 'High', color: '#FEE7E7', urgency: 2, is_public: 1 },
  { id: 4, name: 'Emergency', color: '#FEE7E7', urgency: 1, is_public: 1 },
];

/**
 * Tickets on deskgate's own schema (decision 170): statuses and priorities as osTicket seeds
 * them, the default department and SLA plan, agents, tickets with their entries and events,
 * tasks, a counter per numbered kind, and the per-key notes flag.
 */
export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  const name = dialect.name;
  const any = db as Kysely<Record<string, Record<string, unknown>>>;
  const at = new Date().toISOString().slice(0, 19).replace('T', ' ');

  await withCharset(db.schema.createTable('ticket_statuses'), name)
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('name', 'varchar(60)', (c) => c.notNull().unique())
    .addColumn('state', 'varchar(16)', (c) => c.notNull())
    .addColumn('sort', 'integer', (c) => c.notNull())
    .execute();
  await any.insertInto('ticket_statuses').values(STATUSES).execute();

  await withCharset(db.schema.createTable('ticket_priorities'), name)
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('name', 'varchar(60)', (c) => c.notNull().unique())
    .addColumn('color', 'varchar(16)', (c) => c.notNull())
    .addColumn('urgency', 'integer', (c) => c.notNull())
    .addColumn('is_public', 'integer', (c) => c.notNull())
    .execute();
  await any.insertInto('ticket_priorities').values(PRIORITIES).execute();

  await withCharset(withId(db.schema.createTable('sla_plans'), name), name)
    .addColumn('name', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('grace_period', 'integer', (c) => c.notNull())
    .addColumn('flags', 'integer', (c) => c.notNull())
    .addColumn('notes', 'text', (c) => c.notNull())
    .addColumn('created_at', TIMESTAMP, (c) => c.notNull())
    .addColumn('updated_at', TIMESTAMP, (c) => c.notNull())
    .execute();
  await any
    .insertInto('sla_plans')
    .values({
      id: 1,
      name: 'Default SLA',
      grace_period: 18,
      flags: 3,
      notes: '',
      created_at: at,
      updated_at: at,
    })
    .execute();
  await dialect.syncIdSequence(db, 'sla_plans');

  await withCharset(withId(db.schema.createTable('departments'), name), name)
    .addColumn('name', 'varchar(128)', (c) => c.notNull().unique())
    .addColumn('signature', 'text', (c) => c.notNull())
    .addColumn('is_public', 'integer', (c) => c.notNull())
    .addColumn('sla_id', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', TIMESTAMP, (c) => c.notNull())
    .addColumn('updated_at', TIMESTAMP, (c) => c.notNull())
    .execute();
  await any
    .insertInto('departments')
    .values({
      id: 1,
      name: 'Support',
      signature: 'Support Department',
      is_public: 1,
      sla_id: 0,
      created_at: at,
      updated_at: at,
    })
    .execute();
  await dialect.syncIdSequence(db, 'departments');

  await withCharset(withId(db.schema.createTable('agents'), name), name)
    .addColumn('username', 'varchar(32)', (c) => c.notNull().unique())
    .addColumn('name', 'varchar(128)', (c) => c.notNull())
    .addColumn('email', 'varchar(255)', (c) => c.notNull())
    .addColumn('dept_id', 'integer', (c) => c.notNull())
    .addColumn('is_active', 'integer', (c) => c.notNull())
    .addColumn('created_at', TIMESTAMP, (c) => c.notNull())
    .addColumn('updated_at', TIMESTAMP, (c) => c.notNull())
    .execute();

  // The next number of each numbered kind, taken in the creating transaction (decision 171).
  await withCharset(db.schema.createTable('counters'), name)
    .addColumn('name', 'varchar(16)', (c) => c.primaryKey())
    .addColumn('next', 'integer', (c) => c.notNull())
    .execute();
  await any
    .insertInto('counters')
    .values([
      { name: 'ticket', next: 1 },
      { name: 'task', next: 1 },
    ])
    .execute();

  await withCharset(withId(db.schema.createTable('tickets'), name), name)
    .addColumn('number', 'varchar(20)', (c) => c.notNull().unique())
    .addColumn('user_id', 'integer', (c) => c.notNull())
    .addColumn('status_id', 'integer', (c) => c.notNull())
    .addColumn('priority_id', 'integer', (c) => c.notNull())
    .addColumn('dept_id', 'integer', (c) => c.notNull())
    .addColumn('sla_id', 'integer', (c) => c.notNull())
    .addColumn('topic_id', 'integer', (c) => c.notNull())
    .addColumn('staff_id', 'integer', (c) => c.notNull())
    .addColumn('subject', 'varchar(255)', (c) => c.notNull())
    .addColumn('source', 'varchar(16)', (c) => c.notNull())
    .addColumn('ip_address', 'varchar(64)', (c) => c.notNull())
    .addColumn('is_overdue', 'integer', (c) => c.notNull())
    .addColumn('is_answered', 'integer', (c) => c.notNull())
    .addColumn('due_at', TIMESTAMP)
    .addColumn('sla_due_at', TIMESTAMP)
    .addColumn('reopened_at', TIMESTAMP)
    .addColumn('closed_at', TIMESTAMP)
    .addColumn('last_message_at', TIMESTAMP)
    .addColumn('last_response_at', TIMESTAMP)
    .addColumn('last_update_at', TIMESTAMP, (c) => c.notNull())
    .addColumn('created_at', TIMESTAMP, (c) => c.notNull())
    .addColumn('updated_at', TIMESTAMP, (c) => c.notNull())
    .execute();
  for (const [index, columns] of [
    ['tickets_created_at_id', ['created_at', 'id']],
    ['tickets_last_update_at_id', ['last_update_at', 'id']],
    ['tickets_status_created_at_id', ['status_id', 'created_at', 'id']],
  ] as const) {
    await createIndexIfMissing(db, name, { name: index, table: 'tickets', columns: [...columns] });
  }

  await withCharset(withId(db.schema.createTable('ticket_entries'), name), name)
    .addColumn('ticket_id', 'integer', (c) => c.notNull().references('tickets.id'))
    .addColumn('pid', 'integer', (c) => c.notNull())
    .addColumn('type', 'char(1)', (c) => c.notNull())
    .addColumn('user_id', 'integer', (c) => c.notNull())
    .addColumn('staff_id', 'integer', (c) => c.notNull())
    .addColumn('poster', 'varchar(128)', (c) => c.notNull())
    .addColumn('title', 'varchar(255)')
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('format', 'varchar(16)', (c) => c.notNull())
    .addColumn('source', 'varchar(32)', (c) => c.notNull())
    .addColumn('ip_address', 'varchar(64)', (c) => c.notNull())
    .addColumn('created_at', TIMESTAMP, (c) => c.notNull())
    .execute();
  await createIndexIfMissing(db, name, {
    name: 'ticket_entries_ticket_id',
    table: 'ticket_entries',
    columns: ['ticket_id', 'id'],
  });

  await withCharset(withId(db.schema.createTable('ticket_events'), name), name)
    .addColumn('ticket_id', 'integer', (c) => c.notNull().references('tickets.id'))
    .addColumn('kind', 'varchar(16)', (c) => c.notNull())
    .addColumn('staff_id', 'integer', (c) => c.notNull())
    .addColumn('user_id', 'integer', (c) => c.notNull())
    .addColumn('dept_id', 'integer', (c) => c.notNull())
    .addColumn('topic_id', 'integer', (c) => c.notNull())
    .addColumn('data', 'text')
    .addColumn('at', TIMESTAMP, (c) => c.notNull())
    .execute();
  await createIndexIfMissing(db, name, {
    name: 'ticket_events_ticket_id',
    table: 'ticket_events',
    columns: ['ticket_id', 'id'],
  });

  await withCharset(withId(db.schema.createTable('tasks'), name), name)
    .addColumn('number', 'varchar(20)', (c) => c.notNull().unique())
    .addColumn('ticket_id', 'integer', (c) => c.notNull())
    .addColumn('dept_id', 'integer', (c) => c.notNull())
    .addColumn('staff_id', 'integer', (c) => c.notNull())
    .addColumn('title', 'varchar(255)', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull())
    .addColumn('due_at', TIMESTAMP)
    .addColumn('closed_at', TIMESTAMP)
    .addColumn('created_at', TIMESTAMP, (c) => c.notNull())
    .addColumn('updated_at', TIMESTAMP, (c) => c.notNull())
    .execute();
  await createIndexIfMissing(db, name, {
    name: 'tasks_created_at_id',
    table: 'tasks',
    columns: ['created_at', 'id'],
  });
  await createIndexIfMissing(db, name, {
    name: 'tasks_ticket_id',
    table: 'tasks',
    columns: ['ticket_id', 'id'],
  });

  // A key that may read internal notes (`keys create --notes`).
  await db.schema
    .alterTable('api_keys')
    .addColumn('notes', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
}
