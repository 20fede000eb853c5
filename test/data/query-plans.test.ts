import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Kysely } from 'kysely';
import { sql } from 'kysely';
import { makeReader } from '../../src/data/common/prepared-query.ts';
import type { Dialect } from '../../src/data/dialects/dialect.ts';
import type { DataHandle } from '../../src/data/entity.ts';
import { tablesOf } from '../../src/data/entity.ts';
import { migrateToLatest } from '../../src/data/migrations/migrate.ts';
import { DEFAULT_POOL, openDatabase } from '../../src/data/open-database.ts';
import {
  addIndexSql,
  OSTICKET_READ_INDEXES,
  readIndexStates,
} from '../../src/data/osticket/osticket-indexes.ts';
import { TablePrefixPlugin } from '../../src/data/osticket/table-prefix-plugin.ts';
import { tasks } from '../../src/data/tasks/tasks.ts';
import type { OwnTicketTables } from '../../src/data/tickets/own-tickets.ts';
import { tickets } from '../../src/data/tickets/tickets.ts';
import type { OwnUserTables } from '../../src/data/users/own-users.ts';
import { users } from '../../src/data/users/users.ts';
import { DATABASES, type DatabaseKind, type TestDatabase } from '../helpers/databases.ts';
import { explain, recordStatements } from '../helpers/query-plans.ts';
import {
  createOsticketDatabase,
  OSTICKET_SKIP,
  type OsticketDatabase,
} from '../osticket/osticket-database.ts';

/**
 * Issue 34, item 5: every list and look-up the data layer runs for ticket/all, ticket/specific,
 * user/all, user/specific, tasks/all and tasks/specific is planned as an index read of the
 * ticket, user and task tables, on a table large enough that the planner would rather scan if
 * the index did not serve: no full scan, no sort of their rows, and the look-ups and deep pages
 * (half-way into the list) reach their rows by an index seek. The SQL is what the data layer sends,
 * recorded from its executor, explained with its own values.
 */

const ROWS = 30_000;
const BASE = Date.UTC(2024, 0, 1);
const at = (minutes: number) =>
  new Date(BASE + minutes * 60_000).toISOString().slice(0, 19).replace('T', ' ');
/** Row n's creation and last update: creation follows ids, last update does not. */
const createdOf = (n: number) => at(n);
const updatedOf = (n: number) => at(ROWS + ((n * 7919) % ROWS));
const FULL_RANGE = { from: '1970-01-01 00:00:00', to: '2999-12-31 23:59:59' };

const positions = new Map<(n: number) => string, { created: string; id: number }>();

/** The (time, id) position of the row half-way into the list ordered by `timeOf`. */
function deepPosition(timeOf: (n: number) => string): { created: string; id: number } {
  const known = positions.get(timeOf);
  if (known) return known;
  const times = Array.from({ length: ROWS + 1 }, (_, n) => timeOf(n));
  const ordered = Array.from({ length: ROWS }, (_, i) => i + 1).sort((a, b) =>
    times[a] === times[b] ? a - b : (times[a] as string) < (times[b] as string) ? -1 : 1,
  );
  const id = ordered[Math.floor(ROWS / 2)] as number;
  const position = { created: timeOf(id), id };
  positions.set(timeOf, position);
  return position;
}

interface PlanCase {
  name: string;
  /** Look-ups and deep pages must seek; a first page may walk an index in order. */
  seek: boolean;
  /** Only on deskgate's own schema. */
  ownOnly?: boolean;
  /**
   * In osTicket mode, why the planner may either seek and sort what it found, or walk an index
   * in list order without a seek: osTicket's schema has no index that does both. Only a full
   * scan fails then.
   */
  osticketEither?: string;
  run(handle: DataHandle): Promise<unknown>;
}

const ticketsOf = (handle: DataHandle) =>
  handle.layout === 'own' ? tickets.own(handle) : tickets.osticket(handle);
const usersOf = (handle: DataHandle) =>
  handle.layout === 'own' ? users.own(handle) : users.osticket(handle);
const tasksOf = (handle: DataHandle) =>
  handle.layout === 'own' ? tasks.own(handle) : tasks.osticket(handle);

/**
 * A ticket with many tasks (the first TICKET_TASKS), so that a planner would rather sort them
 * than read them in order were the index not there; every other task n belongs to ticket
 * (n mod ROWS/4) + 1.
 */
const TASK_TICKET = 7;
const TICKET_TASKS = 3000;
const ticketOfTask = (n: number) => (n <= TICKET_TASKS ? TASK_TICKET : (n % (ROWS / 4)) + 1);

const page = { from: undefined, to: undefined, statusId: 0, limit: 101, notes: false } as const;

const CASES: PlanCase[] = [
  {
    name: 'ticket/all by creation date, first page',
    seek: false,
    run: (h) => ticketsOf(h).listTickets({ ...page, order: 'created', after: undefined }),
  },
  {
    name: 'ticket/all by creation date, a page half-way in',
    seek: true,
    run: (h) =>
      ticketsOf(h).listTickets({ ...page, order: 'created', after: deepPosition(createdOf) }),
  },
  {
    name: 'ticket/all by last update, first page',
    seek: false,
    run: (h) => ticketsOf(h).listTickets({ ...page, order: 'lastupdate', after: undefined }),
  },
  {
    name: 'ticket/all by last update, a page half-way in',
    seek: true,
    run: (h) =>
      ticketsOf(h).listTickets({ ...page, order: 'lastupdate', after: deepPosition(updatedOf) }),
  },
  {
    name: 'ticket/all of one status by last update, first page',
    seek: true,
    run: (h) =>
      ticketsOf(h).listTickets({ ...page, statusId: 1, order: 'lastupdate', after: undefined }),
  },
  {
    name: 'ticket/all of one status by creation date, a deep page',
    seek: true,
    run: (h) =>
      ticketsOf(h).listTickets({
        ...page,
        statusId: 1,
        order: 'created',
        after: deepPosition(createdOf),
      }),
  },
  {
    name: 'ticket/all of one status by last update, a deep page',
    seek: true,
    run: (h) =>
      ticketsOf(h).listTickets({
        ...page,
        statusId: 1,
        order: 'lastupdate',
        after: deepPosition(updatedOf),
      }),
  },
  {
    name: 'ticket/specific by id',
    seek: true,
    run: (h) => ticketsOf(h).findTicket({ id: Math.floor(ROWS / 2) }, { notes: false }),
  },
  {
    name: 'ticket/specific by number',
    seek: true,
    run: (h) => ticketsOf(h).findTicket({ number: String(100_000 + ROWS / 2) }, { notes: false }),
  },
  {
    name: 'user/all, first page',
    seek: false,
    run: (h) => usersOf(h).listUsersCreatedBetween({ ...FULL_RANGE, after: undefined, limit: 101 }),
  },
  {
    name: 'user/all, a page half-way in',
    seek: true,
    run: (h) =>
      usersOf(h).listUsersCreatedBetween({
        ...FULL_RANGE,
        after: deepPosition(createdOf),
        limit: 101,
      }),
  },
  { name: 'user/specific by id', seek: true, run: (h) => usersOf(h).findUserById(ROWS / 2) },
  {
    name: 'user/specific by e-mail',
    seek: true,
    run: (h) => usersOf(h).findUserIdByEmail(`user${ROWS / 2}@example.com`),
  },
  {
    name: 'tasks/all, first page',
    seek: false,
    run: (h) =>
      tasksOf(h).listTasks({
        from: undefined,
        to: undefined,
        ticketId: 0,
        after: undefined,
        limit: 101,
      }),
  },
  {
    name: 'tasks/all, a page half-way in',
    seek: true,
    run: (h) =>
      tasksOf(h).listTasks({
        from: undefined,
        to: undefined,
        ticketId: 0,
        after: deepPosition(createdOf),
        limit: 101,
      }),
  },
  {
    name: 'tasks/all of one ticket, first page',
    seek: true,
    osticketEither:
      "one ticket's tasks, found by osTicket's `object` index (object_id, object_type)",
    run: (h) =>
      tasksOf(h).listTasks({
        from: undefined,
        to: undefined,
        ticketId: TASK_TICKET,
        after: undefined,
        limit: 101,
      }),
  },
  {
    name: 'tasks/all of one ticket, a later page',
    seek: true,
    osticketEither:
      "one ticket's tasks, found by osTicket's `object` index (object_id, object_type)",
    run: (h) =>
      tasksOf(h).listTasks({
        from: undefined,
        to: undefined,
        ticketId: TASK_TICKET,
        after: { created: createdOf(TICKET_TASKS / 2), id: TICKET_TASKS / 2 },
        limit: 101,
      }),
  },
  { name: 'tasks/specific by id', seek: true, run: (h) => tasksOf(h).findTask(ROWS / 2) },
];

const BATCH = 1000;

function batches<T>(count: number, make: (n: number) => T): T[][] {
  const all: T[][] = [];
  for (let start = 1; start <= count; start += BATCH) {
    all.push(Array.from({ length: Math.min(BATCH, count - start + 1) }, (_, i) => make(start + i)));
  }
  return all;
}

/** ROWS tickets, users (each with an address) and tasks in deskgate's own tables. */
async function fillOwn(db: Kysely<object>, kind: DatabaseKind['name']): Promise<void> {
  const own = tablesOf<OwnTicketTables & OwnUserTables>(db);
  for (const rows of batches(ROWS, (n) => ({
    org_id: 0,
    default_email_id: n,
    status: 0,
    name: `User ${n}`,
    phone: '',
    created_at: createdOf(n),
    updated_at: createdOf(n),
  })))
    await own.insertInto('users').values(rows).execute();
  for (const rows of batches(ROWS, (n) => ({
    user_id: n,
    address: `user${n}@example.com`,
    address_key: `user${n}@example.com`,
  })))
    await own.insertInto('user_emails').values(rows).execute();
  // user/all lists users with a portal account (an inner join): give each one.
  for (const rows of batches(ROWS, (n) => ({
    user_id: n,
    timezone: 'UTC',
    password_hash: '',
    registered_at: createdOf(n),
  })))
    await own.insertInto('user_accounts').values(rows).execute();
  for (const rows of batches(ROWS, (n) => ({
    number: String(100_000 + n),
    user_id: n,
    status_id: (n % 3) + 1,
    priority_id: 2,
    dept_id: 1,
    sla_id: 0,
    topic_id: 0,
    staff_id: 0,
    subject: `Ticket ${n}`,
    source: 'API',
    ip_address: '',
    is_overdue: 0,
    is_answered: 0,
    due_at: null,
    sla_due_at: null,
    reopened_at: null,
    closed_at: null,
    last_message_at: null,
    last_response_at: null,
    last_update_at: updatedOf(n),
    created_at: createdOf(n),
    updated_at: updatedOf(n),
  })))
    await own.insertInto('tickets').values(rows).execute();
  for (const rows of batches(ROWS, (n) => ({
    number: String(100_000 + n),
    ticket_id: ticketOfTask(n),
    dept_id: 1,
    staff_id: 0,
    title: `Task ${n}`,
    description: '',
    due_at: null,
    closed_at: null,
    created_at: createdOf(n),
    updated_at: createdOf(n),
  })))
    await own.insertInto('tasks').values(rows).execute();
  if (kind === 'mysql') {
    await sql`analyze table tickets, users, user_emails, user_accounts, tasks`.execute(db);
  } else {
    await sql`analyze`.execute(db);
  }
}

/** ROWS tickets, users and tasks in osTicket's own tables, as its installer made them. */
async function fillOsticket(osticket: OsticketDatabase): Promise<void> {
  const { prefix } = osticket;
  for (const rows of batches(ROWS, (n) => [n, `User ${n}`, createdOf(n), createdOf(n), 0]))
    await osticket.query(
      `INSERT INTO ${prefix}user (default_email_id, name, created, updated, org_id) VALUES ?`,
      [rows],
    );
  for (const rows of batches(ROWS, (n) => [n, `user${n}@example.com`]))
    await osticket.query(`INSERT INTO ${prefix}user_email (user_id, address) VALUES ?`, [rows]);
  for (const rows of batches(ROWS, (n) => [
    String(100_000 + n),
    n,
    (n % 3) + 1,
    1,
    createdOf(n),
    updatedOf(n),
    updatedOf(n),
  ]))
    await osticket.query(
      `INSERT INTO ${prefix}ticket (number, user_id, status_id, dept_id, created, lastupdate, updated) VALUES ?`,
      [rows],
    );
  for (const rows of batches(ROWS, (n) => [
    ticketOfTask(n),
    'T',
    String(100_000 + n),
    1,
    createdOf(n),
    createdOf(n),
  ]))
    await osticket.query(
      `INSERT INTO ${prefix}task (object_id, object_type, number, dept_id, created, updated) VALUES ?`,
      [rows],
    );
  // One thread and one message per ticket: the entries a page carries.
  for (const rows of batches(ROWS, (n) => [n, 'T', createdOf(n)]))
    await osticket.query(`INSERT INTO ${prefix}thread (object_id, object_type, created) VALUES ?`, [
      rows,
    ]);
  for (const rows of batches(ROWS, (n) => [
    n,
    'M',
    'Poster',
    `Message ${n}`,
    createdOf(n),
    createdOf(n),
  ]))
    await osticket.query(
      `INSERT INTO ${prefix}thread_entry (thread_id, type, poster, body, created, updated) VALUES ?`,
      [rows],
    );
  await osticket.query(
    `ANALYZE TABLE ${prefix}ticket, ${prefix}user, ${prefix}user_email, ${prefix}task, ${prefix}thread, ${prefix}thread_entry`,
  );
}

/** The plan of every statement `planCase` runs that reads a watched table, checked. */
async function assertIndexDriven(
  handle: DataHandle,
  kind: DatabaseKind['name'],
  watched: ReadonlySet<string>,
  record: ReturnType<typeof recordStatements>,
  planCase: PlanCase,
  relaxed = false,
): Promise<void> {
  const statements = await record.during(() => planCase.run(handle));
  const reading = statements.filter((statement) =>
    [...watched].some((table) => new RegExp(`[\`"]${table}[\`"]`).test(statement.sql)),
  );
  assert.ok(reading.length > 0, `${planCase.name}: no statement reads ${[...watched].join(', ')}`);
  for (const statement of reading) {
    const plan = await explain(handle.db, kind, statement, watched);
    const context = `${planCase.name}\n${statement.sql}\n${plan.text}`;
    assert.deepEqual(plan.fullScans, [], `a full scan: ${context}`);
    if (relaxed) continue;
    assert.equal(plan.sorted, false, `rows sorted: ${context}`);
    if (planCase.seek) assert.ok(plan.seeks.length > 0, `no index seek: ${context}`);
  }
}

for (const kind of DATABASES) {
  describe(`query plans on deskgate's own schema, ${kind.name}`, () => {
    let database: TestDatabase;
    let handle: DataHandle;
    let record: ReturnType<typeof recordStatements>;
    before(async () => {
      database = await kind.create();
      const { db, dialect } = openDatabase<object>(database.url);
      await migrateToLatest(db, dialect, 'deskgate');
      await fillOwn(db, kind.name);
      record = recordStatements(db);
      handle = { layout: 'own', db, dialect, reader: makeReader(db) };
    });
    after(async () => {
      await handle?.db.destroy();
      await database?.drop();
    });
    const watched = new Set(['tickets', 'users', 'user_emails', 'tasks']);
    for (const planCase of CASES) {
      test(planCase.name, () => assertIndexDriven(handle, kind.name, watched, record, planCase));
    }
  });
}

describe("query plans in osTicket mode (osTicket 1.18.1's schema, MariaDB)", {
  skip: OSTICKET_SKIP,
}, () => {
  let osticket: OsticketDatabase;
  let handle: DataHandle;
  let record: ReturnType<typeof recordStatements>;
  let dialect: Dialect;
  before(async () => {
    osticket = await createOsticketDatabase();
    await fillOsticket(osticket);
    const opened = openDatabase<object>(osticket.url, DEFAULT_POOL, { serverTimeZone: true });
    dialect = opened.dialect;
    const prefixed = opened.db.withPlugin(new TablePrefixPlugin(osticket.prefix, new Set()));
    record = recordStatements(prefixed);
    handle = {
      layout: 'osticket',
      db: prefixed,
      dialect,
      reader: makeReader(prefixed),
      prefix: osticket.prefix,
      syslog: false,
      adminWrites: false,
    };
  });
  after(async () => {
    await handle?.db.destroy();
    await osticket?.drop();
  });
  // The entries too: ordering them over their join once sorted the bodies in a temporary table.
  const watched = new Set([
    'ost_ticket',
    'ost_user',
    'ost_user_email',
    'ost_task',
    'ost_thread_entry',
  ]);

  test("without deskgate's indexes, the reads the start-up warning names are not index-driven", async () => {
    const states = await readIndexStates(handle.db, osticket.prefix);
    assert.deepEqual(
      states.map((state) => [state.index.name, state.present, state.rows >= ROWS * 0.5]),
      OSTICKET_READ_INDEXES.map((index) => [index.name, false, true]),
    );
    for (const name of [
      'ticket/all by last update, a page half-way in',
      'ticket/specific by number',
      'user/all, a page half-way in',
    ]) {
      const planCase = CASES.find((candidate) => candidate.name === name) as PlanCase;
      await assert.rejects(
        assertIndexDriven(handle, 'mysql', watched, record, planCase),
        assert.AssertionError,
        name,
      );
    }
  });

  describe('with them', () => {
    before(async () => {
      for (const index of OSTICKET_READ_INDEXES)
        await osticket.query(addIndexSql(osticket.prefix, index));
      await osticket.query(`ANALYZE TABLE ${osticket.prefix}ticket, ${osticket.prefix}user`);
    });
    for (const planCase of CASES.filter((candidate) => !candidate.ownOnly)) {
      test(planCase.name, () =>
        assertIndexDriven(
          handle,
          'mysql',
          watched,
          record,
          planCase,
          planCase.osticketEither !== undefined,
        ),
      );
    }
  });
});
