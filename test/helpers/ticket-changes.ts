import assert from 'node:assert/strict';
import { before } from 'node:test';
import type { Kysely } from 'kysely';
import { openDatabase } from '../../src/data/open-database.ts';
import type { SuiteDatabase } from './each-database.ts';
import type { Reply } from './http.ts';
import { type TestServer, useTestServer } from './test-server.ts';
import { addAgent, addUser, ticketAddBody } from './tickets.ts';

type Direct = Kysely<Record<string, Record<string, unknown>>>;

/** One row of ticket_events as a test compares it: kind, actor, data and changes parsed. */
export interface EventRow {
  kind: string;
  staff_id: number;
  dept_id: number;
  team_id: number;
  data: unknown;
  changes: unknown;
}

/** What the tests of ticket/note, status, assign, transfer and update share (issue 35). */
export interface TicketChangeSuite {
  readonly server: TestServer;
  /** The acting agent (the server's key may act as any agent). */
  readonly agentId: number;
  readonly otherAgentId: number;
  readonly userId: number;
  /** A new open ticket; resolves to its id. */
  open(): Promise<string>;
  /** ticket/<condition> with these parameters (POST), with the headers given. */
  write(
    condition: string,
    parameters: Record<string, unknown>,
    options?: { key?: string; headers?: Record<string, string> },
  ): Promise<Reply>;
  /** ticket/<condition> of ticket `id` as the acting agent, with these parameters besides. */
  change(
    condition: string,
    id: string,
    parameters: Record<string, unknown>,
    options?: { key?: string; headers?: Record<string, string> },
  ): Promise<Reply>;
  /** ticket/specific as a key with the notes grant: every entry, notes included. */
  read(id: string, key?: string): Promise<Record<string, unknown>>;
  events(id: string): Promise<EventRow[]>;
  /** How many rows the ticket tables hold (nothing written on an error). */
  counts(): Promise<Record<string, number>>;
  /**
   * ticket/<condition> once per case, with the case's parameters over `base`: each → 400 naming
   * exactly the case's field, and no row of the ticket tables written by any.
   */
  refusesNamingTheField(
    condition: string,
    base: Record<string, unknown>,
    cases: ReadonlyArray<readonly [parameters: Record<string, unknown>, field: string]>,
  ): Promise<void>;
  /** A statement on the suite's database, for set-up the interface does not offer. */
  direct<T>(fn: (db: Direct) => Promise<T>): Promise<T>;
}

const parsed = (value: unknown) => (value === null ? null : JSON.parse(String(value)));

export function useTicketChangeSuite(database: SuiteDatabase): TicketChangeSuite {
  const server = useTestServer({ database });
  let agentId = 0;
  let otherAgentId = 0;
  let userId = 0;
  let notesKey = '';

  before(async () => {
    userId = await addUser(server.store);
    agentId = await addAgent(server.store, 'Alex Agent');
    otherAgentId = await addAgent(server.store, 'Olga Other');
    ({ key: notesKey } = await server.createKey({ scopes: ['tickets:read'], notes: true }));
  });

  const direct = async <T>(fn: (db: Direct) => Promise<T>): Promise<T> => {
    const { db } = openDatabase<Record<string, Record<string, unknown>>>(database.url);
    try {
      return await fn(db);
    } finally {
      await db.destroy();
    }
  };

  const counts = (): Promise<Record<string, number>> =>
    direct(async (db) => {
      const rows: Record<string, number> = {};
      for (const table of ['tickets', 'ticket_entries', 'ticket_events']) {
        const row = await db
          .selectFrom(table)
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow();
        rows[table] = Number(row.n);
      }
      return rows;
    });

  const write: TicketChangeSuite['write'] = (condition, parameters, options = {}) =>
    server.request(
      { query: 'ticket', condition, parameters },
      {
        method: 'POST',
        ...(options.key === undefined ? {} : { key: options.key }),
        ...(options.headers ? { headers: options.headers } : {}),
      },
    );

  return {
    server,
    get agentId() {
      return agentId;
    },
    get otherAgentId() {
      return otherAgentId;
    },
    get userId() {
      return userId;
    },
    async open() {
      const reply = await server.request(ticketAddBody(userId), { method: 'POST' });
      assert.equal(reply.status, 200, reply.text);
      return String(reply.body?.data);
    },
    write,
    change: (condition, id, parameters, options) =>
      write(condition, { ticket_id: id, staff_id: agentId, ...parameters }, options),
    async read(id, key = notesKey) {
      const reply = await server.request(
        { query: 'ticket', condition: 'specific', parameters: { id } },
        { key },
      );
      assert.equal(reply.status, 200, reply.text);
      const data = reply.body?.data as { tickets: Record<string, unknown>[] } | undefined;
      return data?.tickets[0] ?? {};
    },
    events: (id) =>
      direct(async (db) =>
        (
          await db
            .selectFrom('ticket_events')
            .select(['kind', 'staff_id', 'dept_id', 'team_id', 'data', 'changes'])
            .where('ticket_id', '=', Number(id))
            .orderBy('id')
            .execute()
        ).map((row) => ({
          kind: String(row.kind),
          staff_id: Number(row.staff_id),
          dept_id: Number(row.dept_id),
          team_id: Number(row.team_id),
          data: parsed(row.data),
          changes: parsed(row.changes),
        })),
      ),
    counts,
    async refusesNamingTheField(condition, base, cases) {
      const rowsBefore = await counts();
      for (const [parameters, field] of cases) {
        const reply = await write(condition, { ...base, ...parameters });
        assert.equal(reply.status, 400, `${JSON.stringify(parameters)} ${reply.text}`);
        assert.deepEqual(
          reply.body?.errors?.map((e) => e.field),
          [field],
        );
      }
      assert.deepEqual(await counts(), rowsBefore);
    },
    direct,
  };
}

/** The entries of a ticket/specific answer as [type, title, body, staff]. */
export function entriesOf(ticket: Record<string, unknown>): string[][] {
  return (ticket.entries as Record<string, string>[]).map((e) => [
    e.entry_type ?? '',
    e.entry_title ?? '',
    e.entry_body ?? '',
    e.entry_staff_id ?? '',
  ]);
}
