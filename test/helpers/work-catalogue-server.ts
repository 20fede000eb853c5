import { before } from 'node:test';
import { type Kysely, sql } from 'kysely';
import { SERVICE_PATH } from '../../src/http/openapi/build-openapi-document.ts';
import { insertTicketLists } from '../osticket/osticket-ticket-rows.ts';
import { withDatabase } from '../support/database-rows.ts';
import type { KindDatabase } from './each-database.ts';
import type { Reply } from './http.ts';
import { call } from './http.ts';
import { type Json, makeConformance } from './openapi-conformance.ts';
import { type TestServer, useTestServer } from './test-server.ts';

/** The tables status/all … team/all read, in each layout, for "nothing changed" checks. */
const TABLES = {
  own: ['ticket_statuses', 'ticket_priorities', 'agents', 'teams', 'departments'],
  osticket: ['ost_ticket_status', 'ost_ticket_priority', 'ost_staff', 'ost_team', 'ost_department'],
};

/** The agents every layout gets: their ids by a short label. */
export interface SuiteAgents {
  /** Alex Agent, department 1, active. */
  alex: number;
  /** Bo Billing, department 2, active; in osTicket mode also given access to department 1. */
  bo: number;
  /** Cy Locked, department 2, not active. */
  cy: number;
}

/** A suite of the ticket-work catalogues (status/all, priority/all, staff/all, team/all). */
export interface WorkCatalogueSuite {
  readonly server: TestServer;
  /** A key with `tickets:read`: deskgate's, or osTicket's key that may create tickets. */
  readonly ticketsKey: string;
  /** A key with `read` only: deskgate's, or osTicket's key that may not create tickets. */
  readonly readKey: string;
  readonly agents: SuiteAgents;
  /** One GET of `query/all` with `parameters` (left out when undefined), by `key`. */
  list(query: string, parameters?: Record<string, unknown>, key?: string): Promise<Reply>;
  /** The reply is `operation`'s success envelope as the served OpenAPI document has it. */
  conforms(operation: string, reply: Reply): void;
  /** Rows in each of the tables the catalogues read. */
  countRows(): Promise<number[]>;
}

const STAFF = [
  { label: 'alex', first: 'Alex', last: 'Agent', dept: 1, active: 1 },
  { label: 'bo', first: 'Bo', last: 'Billing', dept: 2, active: 1 },
  { label: 'cy', first: 'Cy', last: 'Locked', dept: 2, active: 0 },
] as const;

/** The rows of deskgate's schema: its seeded statuses and priorities, three agents, two teams. */
async function seedOwn(url: string): Promise<SuiteAgents> {
  return withDatabase(url, async (typed) => {
    const db = typed as unknown as Kysely<Record<string, Record<string, unknown>>>;
    const at = '2026-11-27 10:00:00';
    const ids: Record<string, number> = {};
    for (const agent of STAFF) {
      await db
        .insertInto('agents')
        .values({
          username: `login.${agent.label}`,
          name: `${agent.first} ${agent.last}`,
          email: `${agent.label}@deskgate.test`,
          dept_id: agent.dept,
          is_active: agent.active,
          created_at: at,
          updated_at: at,
        })
        .execute();
      const row = await db
        .selectFrom('agents')
        .select('id')
        .where('username', '=', `login.${agent.label}`)
        .executeTakeFirstOrThrow();
      ids[agent.label] = Number(row.id);
    }
    for (const [name, enabled] of [
      ['Level I Support', 1],
      ['Old team', 0],
    ] as const) {
      await db
        .insertInto('teams')
        .values({ name, is_enabled: enabled, created_at: at, updated_at: at })
        .execute();
    }
    return ids as unknown as SuiteAgents;
  });
}

/**
 * The rows of an osTicket help desk as its installer and admin panel write them: the installer's
 * statuses and priorities (plus a disabled status), three agents (one with extra access to
 * department 1), the installer's sample team and a disabled one.
 */
async function seedOsticket(osticket: NonNullable<KindDatabase['osticket']>): Promise<SuiteAgents> {
  await insertTicketLists(osticket);
  await osticket.query(
    `INSERT INTO ost_ticket_status (name, state, mode, flags, sort, properties, created, updated)
     VALUES ('Hidden', 'open', 2, 0, 6, '{}', NOW(), NOW())`,
  );
  const ids: Record<string, number> = {};
  for (const agent of STAFF) {
    ids[agent.label] = await osticket.insert(
      `INSERT INTO ost_staff (dept_id, role_id, username, firstname, lastname, passwd, email,
         signature, isactive, created, updated)
       VALUES (?, 1, ?, ?, ?, '$2a$08$notarealhashnotarealhashnotarealhashnotareal', ?, '', ?, NOW(), NOW())`,
      [
        agent.dept,
        `login.${agent.label}`,
        agent.first,
        agent.last,
        `${agent.label}@deskgate.test`,
        agent.active,
      ],
    );
  }
  // Extra access as the admin panel grants it: Bo, of Billing, also works in department 1.
  await osticket.query(
    'INSERT INTO ost_staff_dept_access (staff_id, dept_id, role_id, flags) VALUES (?, 1, 1, 1)',
    [ids.bo],
  );
  await osticket.query(
    `INSERT INTO ost_team (lead_id, flags, name, notes, created, updated)
     VALUES (0, 1, 'Level I Support', 'Tier 1 support', NOW(), NOW()), (0, 0, 'Old team', NULL, NOW(), NOW())`,
  );
  return ids as unknown as SuiteAgents;
}

/** The server, keys and rows of a work-catalogue suite on `database` (describeEachDatabaseKind). */
export function useWorkCatalogueServer(database: KindDatabase): WorkCatalogueSuite {
  const server = useTestServer(() => ({
    database: database.url,
    env: database.env,
    ownKey: database.osticket === undefined,
  }));
  const state = { tickets: '', read: '', agents: { alex: 0, bo: 0, cy: 0 } as SuiteAgents };
  let conformance: ReturnType<typeof makeConformance> | undefined;
  before(async () => {
    const document = await call(`${server.origin}/openapi.json`);
    conformance = makeConformance(document.body as unknown as Json);
    const osticket = database.osticket;
    if (osticket) {
      state.agents = await seedOsticket(osticket);
      state.tickets = osticket.writeKey.key;
      state.read = osticket.readKey.key;
      return;
    }
    state.agents = await seedOwn(database.url);
    state.tickets = (await server.createKey({ scopes: ['tickets:read'] })).key;
    state.read = (await server.createKey({ scopes: ['read'] })).key;
  });
  return {
    server,
    get ticketsKey() {
      return state.tickets;
    },
    get readKey() {
      return state.read;
    },
    get agents() {
      return state.agents;
    },
    list: (query, parameters, key = state.tickets) =>
      server.request(
        { query, condition: 'all', ...(parameters === undefined ? {} : { parameters }) },
        { method: 'GET', key },
      ),
    conforms(operation, reply) {
      if (!conformance) throw new Error('conforms is for tests, after the before hooks');
      conformance.conformsToOperation(SERVICE_PATH, 'get', operation, reply);
    },
    async countRows() {
      const osticket = database.osticket;
      const counts: number[] = [];
      if (osticket) {
        for (const table of TABLES.osticket) {
          const [row] = await osticket.query<{ n: number }>(`SELECT count(*) AS n FROM ${table}`);
          counts.push(Number(row?.n));
        }
        return counts;
      }
      return withDatabase(database.url, async (db) => {
        for (const table of TABLES.own) {
          const { rows } = await sql<{
            n: number;
          }>`select count(*) as n from ${sql.table(table)}`.execute(db);
          counts.push(Number(rows[0]?.n));
        }
        return counts;
      });
    },
  };
}
