import assert from 'node:assert/strict';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { sql } from 'kysely';
import { departments } from '../../src/data/departments/departments.ts';
import { tasks } from '../../src/data/tasks/tasks.ts';
import type { AddExampleRows, ExampleRowsTarget } from '../../src/operations/example-rows.ts';
import { importFaqs } from '../helpers/data-setup.ts';
import type { KindDatabase } from '../helpers/each-database.ts';
import { userBody } from '../helpers/http.ts';
import { ROOT } from '../helpers/paths.ts';
import type { TestServer } from '../helpers/test-server.ts';
import { addAgent, ticketAddBody } from '../helpers/tickets.ts';
import {
  insertOsticketTask,
  insertOsticketTicket,
  insertTicketLists,
} from '../osticket/osticket-ticket-rows.ts';
import { withDatabase } from '../support/database-rows.ts';

/*
 * The data the operations' examples need for a real answer, set up in one place (the lead adapts
 * it when the data layer moves). The examples name: topic 1 and a topic matching "inquiry" (the
 * default topics of both schemas), ann@example.com made by user/add's example, user 42, and users
 * created in November 2026 (user/all's range and its cursor "2026-11-22 09:15:02|42"); agent 1,
 * ticket 7 (made by ticket/add's example, answered and closed by the reply and close examples),
 * open tickets, tickets created in November 2026 and updated on 2026-11-22, tasks 1–3 of ticket 7.
 */

const OPERATIONS_FOLDER = join(ROOT, 'src', 'operations');

/** Users made before the examples run, so that user/add's example makes user 42. */
const USERS_BEFORE_EXAMPLES = 41;

/** When every user was created, inside user/all's example range and after its cursor. */
const CREATED = '2026-11-23 10:00:00';

/** Makes users 1 to 41 through the public interface (POST user/add). */
export async function addUsersBeforeExamples(server: TestServer, key: string): Promise<void> {
  for (let n = 1; n <= USERS_BEFORE_EXAMPLES; n++) {
    const reply = await server.request(userBody({ email: `example-data-${n}@example.com` }), {
      method: 'POST',
      key,
    });
    assert.equal(reply.status, 200, reply.text);
    assert.equal(reply.body?.data, String(n), 'user ids are expected to start at 1 and follow on');
  }
}

/** Moves every user's creation time into user/all's example range (no operation sets it). */
export async function dateUsersForExamples(database: KindDatabase): Promise<void> {
  const { osticket } = database;
  if (osticket) {
    await osticket.query(`UPDATE \`${osticket.prefix}user\` SET created = ?`, [CREATED]);
    return;
  }
  await withDatabase(database.url, (db) =>
    sql`update users set created_at = ${CREATED}`.execute(db),
  );
}

/** Tickets before ticket/add's example opens ticket 7 (open, for ticket/all by status). */
const TICKETS_BEFORE_EXAMPLES = 6;
/** When the tickets were last updated: ticket/all by-last-update's day. */
const LAST_UPDATE = '2026-11-22 12:00:00';

/**
 * The ticket data of the write examples: agent 1 and tickets 1 to 6 on deskgate's schema. In
 * osTicket mode ticket writes are osTicket's (501 without the bridge): the look-ups' rows are
 * written as osTicket writes them instead, by addTicketsForLookUps.
 */
export async function addTicketsBeforeExamples(server: TestServer, key: string): Promise<void> {
  assert.equal(await addAgent(server.store), 1, 'agent ids are expected to start at 1');
  // What ticket/assign and ticket/transfer's examples name: agent 2 and department 2.
  assert.equal(await addAgent(server.store, 'Sam Second'), 2);
  const hardware = await server.store.data(departments).addDepartment?.({
    name: 'Hardware',
    signature: '',
    flags: 4,
    isPublic: true,
    parentId: 0,
  });
  assert.equal(hardware?.id, 2);
  for (let n = 1; n <= TICKETS_BEFORE_EXAMPLES; n++) {
    const reply = await server.request(ticketAddBody(1), { method: 'POST', key });
    assert.equal(reply.status, 200, reply.text);
    assert.equal(reply.body?.data, String(n), 'ticket ids are expected to start at 1');
  }
}

/** Dates the tickets into the look-ups' ranges and adds tasks 1–3 of ticket 7. */
export async function addTicketsForLookUps(
  server: TestServer,
  database: KindDatabase,
): Promise<void> {
  await addCatalogueForLookUps(server, database);
  await addAgentForLookUps(database);
  await addOperationsExampleRows(database);
  const { osticket } = database;
  if (osticket) {
    await osticket.query("SET SESSION sql_mode = ''");
    await insertTicketLists(osticket);
    for (let n = 1; n <= TICKETS_BEFORE_EXAMPLES + 1; n++) {
      await insertOsticketTicket(osticket, {
        userId: 1,
        number: String(n).padStart(6, '0'),
        statusId: n === TICKETS_BEFORE_EXAMPLES + 1 ? 3 : 1,
        created: CREATED,
        replied: LAST_UPDATE,
      });
    }
    for (let n = 1; n <= 3; n++) {
      await insertOsticketTask(osticket, {
        ticketId: TICKETS_BEFORE_EXAMPLES + 1,
        number: String(n),
        title: `Task ${n}`,
        created: CREATED,
      });
    }
    return;
  }
  await withDatabase(database.url, (db) =>
    sql`update tickets set created_at = ${CREATED}, last_update_at = ${LAST_UPDATE}`.execute(db),
  );
  for (let n = 1; n <= 3; n++) {
    await server.store.data(tasks).createTask({
      ticketId: TICKETS_BEFORE_EXAMPLES + 1,
      deptId: 1,
      staffId: 1,
      title: `Task ${n}`,
      description: '',
    });
  }
  await withDatabase(database.url, (db) =>
    sql`update tasks set created_at = ${CREATED}`.execute(db),
  );
}

/**
 * What staff/all's examples read in osTicket mode: the agent 1 of department 1 its admin panel
 * would have made (deskgate's schema has it from the ticket examples).
 */
async function addAgentForLookUps(database: KindDatabase): Promise<void> {
  await database.osticket?.query(
    `INSERT INTO ost_staff (staff_id, dept_id, role_id, username, firstname, lastname, email,
       signature, isactive, created, updated)
     VALUES (1, 1, 1, 'alex', 'Alex', 'Agent', 'alex@example.com', '', 1, NOW(), NOW())`,
  );
}

/**
 * Runs every operation's own example rows: the `addExampleRows` of each
 * `src/operations/<folder>/example-rows.ts` (src/operations/example-rows.ts), found by reading the
 * folders, so an operation whose examples need rows of their own adds a file beside itself.
 */
async function addOperationsExampleRows(database: KindDatabase): Promise<void> {
  const target: ExampleRowsTarget = {
    own: database.osticket
      ? undefined
      : async (statement) => {
          await withDatabase(database.url, (db) => statement.execute(db));
        },
    osticket: database.osticket,
    created: CREATED,
  };
  for (const folder of readdirSync(OPERATIONS_FOLDER).sort()) {
    const file = join(OPERATIONS_FOLDER, folder, 'example-rows.ts');
    if (!existsSync(file)) continue;
    const rows = (await import(pathToFileURL(file).href)) as { addExampleRows: AddExampleRows };
    await rows.addExampleRows(target);
  }
}

/**
 * The catalogue the department, FAQ and SLA examples read: department 1 and SLA plan 1 (seeded on
 * deskgate's schema, written here as a fresh osTicket has them), FAQ category 1 with a FAQ.
 */
async function addCatalogueForLookUps(server: TestServer, database: KindDatabase): Promise<void> {
  const { osticket } = database;
  if (osticket) {
    const p = osticket.prefix;
    await osticket.query(
      `INSERT INTO \`${p}department\` (id, flags, name, signature, ispublic, group_membership, path, updated, created)
       VALUES (1, 4, 'Support', 'Support Department', 1, 1, '/1/', NOW(), NOW())`,
    );
    await osticket.query(
      `INSERT INTO \`${p}sla\` (id, flags, grace_period, name, notes, created, updated)
       VALUES (1, 3, 18, 'Default SLA', NULL, NOW(), NOW())`,
    );
    await osticket.query(
      `INSERT INTO \`${p}faq_category\` (category_id, category_pid, ispublic, name, description, notes, created, updated)
       VALUES (1, NULL, 1, 'Accounts', 'Signing in', '', NOW(), NOW())`,
    );
    await osticket.query(
      `INSERT INTO \`${p}faq\` (faq_id, category_id, ispublished, question, answer, keywords, notes, created, updated)
       VALUES (1, 1, 1, 'How do I reset my password?', 'Use the link.', 'password', '', NOW(), NOW())`,
    );
    return;
  }
  await importFaqs(server.store, [
    {
      name: 'Accounts',
      description: 'Signing in',
      notes: '',
      visibility: 1,
      faqs: [
        {
          question: 'How do I reset my password?',
          answer: 'Use the link.',
          keywords: 'password',
          notes: '',
          published: 1,
        },
      ],
      children: [],
    },
  ]);
}

/** The examples' DESKGATE_WEBHOOK_ENCRYPTION_KEY (32 bytes, base64). */
export const EXAMPLE_WEBHOOK_KEY = 'AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8=';

/** Webhooks 1 and 2, which the webhook examples change, ping and delete (webhook/add makes 3). */
export async function addWebhooksBeforeExamples(server: TestServer, key: string): Promise<void> {
  for (let n = 1; n <= 2; n++) {
    const reply = await server.request(
      {
        query: 'webhook',
        condition: 'add',
        parameters: { url: `https://hooks.example.com/${n}`, events: ['*'] },
      },
      { method: 'POST', key },
    );
    assert.equal(reply.status, 200, reply.text);
    const data = reply.body?.data as { id?: string } | undefined;
    assert.equal(data?.id, String(n), 'webhook ids start at 1');
  }
}
