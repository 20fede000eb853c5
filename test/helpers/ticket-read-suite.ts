import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { before } from 'node:test';
import type { Kysely } from 'kysely';
import { tasks } from '../../src/data/tasks/tasks.ts';
import type { OwnTicketTables } from '../../src/data/tickets/own-tickets.ts';
import {
  insertOsticketTask,
  insertOsticketTicket,
  insertTicketFormAnswers,
  insertTicketLists,
} from '../osticket/osticket-ticket-rows.ts';
import { withDatabase } from '../support/database-rows.ts';
import { runCli } from './cli.ts';
import type { KindDatabase } from './each-database.ts';
import type { Reply } from './http.ts';
import { type TestServer, useTestServer } from './test-server.ts';
import { addAgent, addUser, ticketAddBody } from './tickets.ts';

/** A ticket opened by its user with one message, as each layout stores it. */
export interface SeedTicket {
  /** The ticket's subject (ticket/add's `title`). */
  title: string;
  /** The first message (ticket/add's `subject`). Default: a short sentence. */
  body?: string;
  /** When it was opened, 'YYYY-MM-DD HH:MM:SS'. Default: now. */
  created?: string;
  /** Its last update. Default: `created`. */
  updated?: string;
  /** Resolved (status 2, in both layouts' lists) instead of open (1). */
  resolved?: boolean;
  /** Its number instead of the one the layout gives. */
  number?: string;
}

/** A task, of a ticket or loose (`ticketId` 0), as each layout stores it. */
export interface SeedTask {
  ticketId: number;
  title: string;
  description: string;
  /** Default: now. */
  created?: string;
}

/** A suite of the ticket and task reads (ticket/specific, ticket/all, tasks/*). */
export interface TicketReadSuite {
  readonly server: TestServer;
  /** tickets:read without the notes grant: deskgate's key with every scope, or osTicket's key that may create tickets. */
  readonly ticketsKey: string;
  /** Every scope but tickets:read: deskgate's, or osTicket's key that may not create tickets. */
  readonly withoutTicketsKey: string;
  /** tickets:read with the notes grant (tasks' reads); made only with `notes: true`. */
  readonly notesKey: string;
  /** The user the tickets are opened for. */
  readonly userId: number;
  /** One GET by `key` (default `ticketsKey`). */
  request(body: Record<string, unknown>, key?: string): Promise<Reply>;
  /** Resolves to the new ticket's id. */
  addTicket(ticket: SeedTicket): Promise<number>;
  /** Resolves to the new task's id. */
  addTask(task: SeedTask): Promise<number>;
  /** Rows of the tickets table, for "nothing changed" checks. */
  countTickets(): Promise<number>;
}

export interface TicketReadSuiteOptions {
  /** Server settings over the layout's. */
  env?: Record<string, string>;
  /** Make `notesKey` (in osTicket mode a fourth osTicket key, granted through the CLI). */
  notes?: boolean;
}

type Osticket = NonNullable<KindDatabase['osticket']>;

/** osTicket's rows of a ticket its API opened: ticket, thread, message, form answers, cdata. */
async function insertOsticketApiTicket(
  osticket: Osticket,
  userId: number,
  number: string,
  ticket: SeedTicket,
): Promise<number> {
  const created = ticket.created ?? (await now(osticket));
  const updated = ticket.updated ?? created;
  const ticketId = await osticket.insert(
    `INSERT INTO ost_ticket (number, user_id, user_email_id, status_id, dept_id, sla_id, topic_id,
       staff_id, team_id, email_id, lock_id, flags, sort, ip_address, source, isoverdue,
       isanswered, duedate, est_duedate, reopened, closed, lastupdate, created, updated)
     VALUES (?, ?, 0, ?, 1, 1, 1, 0, 0, 0, 0, 0, 0, '203.0.113.7', 'API', 0, 0, NULL, NULL, NULL,
       ?, ?, ?, ?)`,
    [
      number,
      userId,
      ticket.resolved ? 2 : 1,
      ticket.resolved ? updated : null,
      updated,
      created,
      updated,
    ],
  );
  const threadId = await osticket.insert(
    `INSERT INTO ost_thread (object_id, object_type, lastmessage, created) VALUES (?, 'T', ?, ?)`,
    [ticketId, created, created],
  );
  await osticket.insert(
    `INSERT INTO ost_thread_entry (pid, thread_id, staff_id, user_id, type, flags, poster, source,
       title, body, format, ip_address, created, updated)
     VALUES (0, ?, 0, ?, 'M', 65, 'Tess Ticket', 'API', ?, ?, 'html', '203.0.113.7', ?,
       '0000-00-00 00:00:00')`,
    [threadId, userId, ticket.title, ticket.body ?? 'Help, please.', created],
  );
  await insertTicketFormAnswers(osticket, ticketId, created, ticket.title, {
    id: 2,
    name: 'Normal',
  });
  return ticketId;
}

/** osTicket's rows of a task its panel made: the task, its title, its thread (A) with the description. */
async function insertOsticketTaskRows(
  osticket: Osticket,
  number: string,
  task: SeedTask,
): Promise<number> {
  const created = task.created ?? (await now(osticket));
  const taskId = await osticket.insert(
    `INSERT INTO ost_task (object_id, object_type, number, dept_id, staff_id, team_id, lock_id,
       flags, duedate, closed, created, updated)
     VALUES (?, ?, ?, 1, ?, 0, 0, 1, NULL, NULL, ?, ?)`,
    [
      task.ticketId,
      task.ticketId === 0 ? '' : 'T',
      number,
      task.ticketId === 0 ? 0 : 1,
      created,
      created,
    ],
  );
  const threadId = await osticket.insert(
    `INSERT INTO ost_thread (object_id, object_type, created) VALUES (?, 'A', ?)`,
    [taskId, created],
  );
  // A task made without a description has no message (decision 321).
  if (task.description !== '') {
    await osticket.insert(
      `INSERT INTO ost_thread_entry (pid, thread_id, staff_id, user_id, type, flags, poster, source,
         title, body, format, ip_address, created, updated)
       VALUES (0, ?, 1, 0, 'M', 1, 'Alex Agent', '', ?, ?, 'html', '', ?, '0000-00-00 00:00:00')`,
      [threadId, task.title, task.description, created],
    );
  }
  await osticket.query('INSERT INTO ost_task__cdata (task_id, title) VALUES (?, ?)', [
    taskId,
    task.title,
  ]);
  return taskId;
}

/** The two tickets of the osTicket-mode reads' own tests, with the times they hold. */
export interface ReferenceTickets {
  /** As osTicket 1.18.1 keeps one (number 304366): message, reply, internal note, form answers. */
  full: number;
  /** A task of `full` whose id is `full`'s, with a thread of its own: the original mixed them. */
  taskId: number;
  /** As the original PHP service wrote one (number 304367, closed): no form answers, no thread, `lastupdate` NULL. */
  originals: number;
  created: string;
  replied: string;
}

/** Inserts the reference tickets for `userId`; first, while the task id `full` is free. */
export async function insertReferenceTickets(
  osticket: Osticket,
  userId: number,
): Promise<ReferenceTickets> {
  const created = '2026-11-25 08:37:00';
  const replied = '2026-11-25 09:00:00';
  const full = await insertOsticketTicket(osticket, {
    userId,
    number: '304366',
    statusId: 1,
    created,
    replied,
  });
  const taskId = await insertOsticketTask(osticket, {
    id: full,
    ticketId: full,
    number: '1',
    title: 'Replace toner',
    created: replied,
  });
  const originals = await osticket.insert(
    `INSERT INTO ost_ticket (number, user_id, status_id, dept_id, sla_id, topic_id, ip_address,
       source, lastupdate, created, updated)
     VALUES ('304367', ?, 3, 1, 1, 1, '0', 'API', NULL, '2026-11-26 10:00:00', '2026-11-26 10:00:00')`,
    [userId],
  );
  await osticket.query(
    `INSERT INTO ost_ticket__cdata (ticket_id, subject, priority) VALUES (?, 'From the original', '2')`,
    [originals],
  );
  return { full, taskId, originals, created, replied };
}

/** The tickets of deskgate's schema, typed as src/ has them. */
const ownTickets = (db: unknown) => db as Kysely<OwnTicketTables>;

/** The database's clock to the second, as the rows' DATETIMEs hold it. */
async function now(osticket: Osticket): Promise<string> {
  const [row] = await osticket.query<{ now: string }>('SELECT NOW() AS now');
  return String(row?.now);
}

/**
 * The server, keys and ticket/task seeding of a read suite on `database` (describeEachDatabaseKind).
 * On deskgate's schema tickets are opened through ticket/add (resolved through ticket/close) and
 * their times set in the rows; tasks are made through the store. In osTicket mode the rows are
 * osTicket's, inserted as its API and panel write them (the session allows its zero dates).
 */
export function useTicketReadSuite(
  database: KindDatabase,
  options: TicketReadSuiteOptions = {},
): TicketReadSuite {
  const server = useTestServer(() => ({
    database: database.url,
    env: { ...database.env, ...options.env },
    ownKey: database.osticket === undefined,
  }));
  const state = { tickets: '', withoutTickets: '', notes: '', userId: 0, agentId: 0, made: 0 };
  before(async () => {
    const osticket = database.osticket;
    if (osticket) {
      await osticket.query("SET SESSION sql_mode = ''");
      await insertTicketLists(osticket);
      state.userId = await osticket.insert(
        `INSERT INTO ost_user (org_id, default_email_id, status, name, created, updated)
         VALUES (0, 0, 0, 'Tess Ticket', NOW(), NOW())`,
      );
      state.tickets = osticket.writeKey.key;
      state.withoutTickets = osticket.readKey.key;
      if (options.notes) {
        // As osTicket's admin panel makes keys: 32 uppercase hex characters.
        const key = randomBytes(16).toString('hex').toUpperCase();
        const keyId = await osticket.insert(
          `INSERT INTO ost_api_key (isactive, ipaddr, apikey, can_create_tickets, can_exec_cron, notes, updated, created)
           VALUES (1, '127.0.0.1', ?, 1, 0, 'notes key', NOW(), NOW())`,
          [key],
        );
        // createOsticketDatabase ran `deskgate migrate` already: the grant alone, as an admin runs it.
        const granted = await runCli(
          [
            'osticket',
            'keys',
            'grant',
            String(keyId),
            '--scope',
            'tickets:read',
            '--notes',
            '--database',
            osticket.url,
          ],
          { DESKGATE_SCHEMA: 'osticket', DESKGATE_TABLE_PREFIX: osticket.prefix },
        );
        assert.equal(granted.code, 0, granted.stderr);
        state.notes = key;
      }
      return;
    }
    state.userId = await addUser(server.store);
    state.agentId = await addAgent(server.store);
    state.tickets = server.key;
    state.withoutTickets = (
      await server.createKey({ scopes: ['read', 'write', 'users:read', 'tickets:write'] })
    ).key;
    if (options.notes)
      state.notes = (await server.createKey({ scopes: ['tickets:read'], notes: true })).key;
  });

  const request = (body: Record<string, unknown>, key = state.tickets) =>
    server.request(body, { key, method: 'GET' });

  async function addOwnTicket(ticket: SeedTicket): Promise<number> {
    const added = await server.request(
      ticketAddBody(state.userId, {
        title: ticket.title,
        ...(ticket.body === undefined ? {} : { subject: ticket.body }),
      }),
      { method: 'POST' },
    );
    assert.equal(added.status, 200, added.text);
    const id = Number(added.body?.data);
    if (ticket.resolved) {
      const closing = await server.request(
        {
          query: 'ticket',
          condition: 'close',
          parameters: { ticket_id: id, staff_id: state.agentId, status_id: 2 },
        },
        { method: 'POST' },
      );
      assert.equal(closing.status, 200, closing.text);
    }
    const { created, number } = ticket;
    if (created !== undefined || number !== undefined) {
      await withDatabase(database.url, (db) =>
        ownTickets(db)
          .updateTable('tickets')
          .set({
            ...(number === undefined ? {} : { number }),
            ...(created === undefined
              ? {}
              : { created_at: created, last_update_at: ticket.updated ?? created }),
          })
          .where('id', '=', id)
          .execute(),
      );
    }
    return id;
  }

  return {
    server,
    get ticketsKey() {
      return state.tickets;
    },
    get userId() {
      return state.userId;
    },
    get withoutTicketsKey() {
      return state.withoutTickets;
    },
    get notesKey() {
      if (!options.notes)
        throw new Error('notesKey is made with useTicketReadSuite(…, { notes: true })');
      return state.notes;
    },
    request,
    async addTicket(ticket) {
      state.made++;
      const osticket = database.osticket;
      if (!osticket) return addOwnTicket(ticket);
      return insertOsticketApiTicket(
        osticket,
        state.userId,
        ticket.number ?? String(500_000 + state.made),
        ticket,
      );
    },
    async addTask(task) {
      state.made++;
      const osticket = database.osticket;
      if (osticket) return insertOsticketTaskRows(osticket, String(state.made), task);
      const created = await server.store.data(tasks).createTask({
        ticketId: task.ticketId,
        deptId: 1,
        staffId: task.ticketId === 0 ? 0 : state.agentId,
        title: task.title,
        description: task.description,
      });
      return created.id;
    },
    async countTickets() {
      const osticket = database.osticket;
      if (osticket) {
        const [row] = await osticket.query<{ n: number }>('SELECT COUNT(*) AS n FROM ost_ticket');
        return Number(row?.n);
      }
      return withDatabase(database.url, async (db) => {
        const row = await ownTickets(db)
          .selectFrom('tickets')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow();
        return Number(row.n);
      });
    },
  };
}
