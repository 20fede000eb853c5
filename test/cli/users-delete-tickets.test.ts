import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { test } from 'node:test';
import { type Kysely, sql } from 'kysely';
import { openDatabase } from '../../src/data/open-database.ts';
import { tasks } from '../../src/data/tasks/tasks.ts';
import { openTestSession, waitFor } from '../faults/database-sessions.ts';
import { runCli } from '../helpers/cli.ts';
import { describeEachDatabase } from '../helpers/each-database.ts';
import { userFields } from '../helpers/http.ts';
import type { TestServer } from '../helpers/test-server.ts';
import { useTestServer } from '../helpers/test-server.ts';
import { addAgent, ticketAddBody } from '../helpers/tickets.ts';
import { assertCleanFailure, runCliJson } from './cli-assertions.ts';

/** Every row of every table, as one JSON text: what an erasure must leave no trace in. */
async function everyRow(direct: Kysely<Record<string, Record<string, unknown>>>): Promise<string> {
  const tables = await direct.introspection.getTables();
  const rows: unknown[] = [];
  for (const table of tables)
    rows.push(table.name, await direct.selectFrom(table.name).selectAll().execute());
  return JSON.stringify(rows);
}

interface TicketView {
  ticket_id: string;
  number: string;
  user_id: string;
  status_id: string;
  subject: string;
  ip_address: string;
  created: string;
  closed: string | null;
  entries: {
    entry_id: string;
    entry_type: string;
    entry_poster: string;
    entry_title: string | null;
    entry_body: string;
    entry_ip_address: string;
    entry_created: string;
  }[];
}

/** A user with a closed ticket: their message, an agent's reply greeting them, a task, a note. */
async function userWithTicket(server: TestServer, name: string) {
  const phone = 351219990000 + Math.floor(Math.random() * 9999);
  const email = `${name.split(' ')[0]?.toLowerCase()}.${randomUUID().slice(0, 8)}@example.com`;
  const person = { name, email, phone };
  const added = await server.request(
    { query: 'user', condition: 'add', parameters: userFields(person) },
    { method: 'POST', headers: { 'Idempotency-Key': randomUUID() } },
  );
  assert.equal(added.status, 200, added.text);
  const userId = Number(added.body?.data);
  const words = {
    subject: `Refund for ${name}`,
    message: `My card ending 4242 was charged twice, ${name}, ${person.email}`,
    reply: `Dear ${name}, the refund to ${person.email} is on its way.`,
    task: `Call ${name} back`,
    note: `Refunded ${name}`,
  };
  const opened = await server.request(
    ticketAddBody(userId, { title: words.subject, subject: words.message }),
    { method: 'POST', headers: { 'Idempotency-Key': randomUUID() } },
  );
  assert.equal(opened.status, 200, opened.text);
  const ticketId = Number(opened.body?.data);
  const agentId = await addAgent(server.store);
  const replied = await server.request(
    {
      query: 'ticket',
      condition: 'reply',
      parameters: { ticket_id: ticketId, body: words.reply, staff_id: agentId },
    },
    { method: 'POST', headers: { 'Idempotency-Key': randomUUID() } },
  );
  assert.equal(replied.status, 200, replied.text);
  await server.store.data(tasks).createTask({
    title: words.task,
    description: '',
    ticketId,
    deptId: 1,
    staffId: agentId,
  });
  const closed = await server.request(
    {
      query: 'ticket',
      condition: 'close',
      parameters: { ticket_id: ticketId, staff_id: agentId, status_id: 3, body: words.note },
    },
    { method: 'POST', headers: { 'Idempotency-Key': randomUUID() } },
  );
  assert.equal(closed.status, 200, closed.text);
  return { userId, ticketId, agentId, person, words };
}

describeEachDatabase('deskgate users delete --anonymise-tickets', (database, kind) => {
  const server = useTestServer({ database });
  const db = () => ['--database', database.url];

  async function withDirect<T>(
    fn: (direct: Kysely<Record<string, Record<string, unknown>>>) => Promise<T>,
  ) {
    const { db: direct } = openDatabase<Record<string, Record<string, unknown>>>(database.url);
    try {
      return await fn(direct);
    } finally {
      await direct.destroy();
    }
  }

  async function readTicket(id: number): Promise<TicketView> {
    const read = await server.request({
      query: 'ticket',
      condition: 'specific',
      parameters: { id },
    });
    assert.equal(read.status, 200, read.text);
    return (read.body?.data as { tickets: TicketView[] } | undefined)?.tickets[0] as TicketView;
  }

  test('without the flag the refusal names it; with it the user goes and the ticket keeps its history but no trace of them', async () => {
    const { userId, ticketId, person, words } = await userWithTicket(server, 'Erin Erasable');
    const other = await userWithTicket(server, 'Otto Other');
    assertCleanFailure(
      await runCli(['users', 'delete', String(userId), '--yes', ...db()]),
      1,
      new RegExp(`user ${userId} is named by 1 ticket\\(s\\): pass --anonymise-tickets`),
    );
    const before = await readTicket(ticketId);
    const otherBefore = await readTicket(other.ticketId);
    const personal = [person.name, person.email, String(person.phone), ...Object.values(words)];
    const everythingBefore = await withDirect(everyRow);
    for (const text of personal) assert.ok(everythingBefore.includes(text), text);
    const auditBefore = await withDirect((direct) =>
      direct.selectFrom('audit_log').select('id').execute(),
    );

    const result = await runCliJson([
      'users',
      'delete',
      String(userId),
      '--anonymise-tickets',
      '--yes',
      ...db(),
    ]);
    assert.deepEqual(result, {
      id: userId,
      deleted: true,
      forgotten: {
        'stored user/add answers': 1,
        'anonymised tickets': 1,
        // ticket/add's message names the user as its actor (the feed keeps the id only).
        'feed events naming the user': 1,
        // ticket/add's, reply's and close's, each sent with an Idempotency-Key.
        'stored ticket write answers': 3,
      },
    });

    // The ticket is still there, with its number, status, times and entries, naming no one.
    const after = await readTicket(ticketId);
    assert.deepEqual(
      { ...after, entries: undefined },
      { ...before, entries: undefined, user_id: '0', subject: '[erased]', ip_address: '' },
    );
    assert.deepEqual(
      after.entries.map((e) => [e.entry_id, e.entry_type, e.entry_created]),
      before.entries.map((e) => [e.entry_id, e.entry_type, e.entry_created]),
    );
    const [message, reply] = after.entries;
    assert.equal(message?.entry_poster, '[erased]');
    assert.equal(message?.entry_title, '[erased]');
    assert.equal(message?.entry_body, '[erased]');
    assert.equal(message?.entry_ip_address, '');
    assert.equal(reply?.entry_poster, 'Alex Agent', "an agent's entry keeps who wrote it");
    assert.equal(reply?.entry_body, '[erased]');
    assert.deepEqual(
      await readTicket(other.ticketId),
      otherBefore,
      'other tickets stay as they were',
    );

    await withDirect(async (direct) => {
      const everything = await everyRow(direct);
      for (const text of personal)
        assert.ok(!everything.includes(text), `the database still holds ${JSON.stringify(text)}`);
      for (const text of [other.person.name, other.person.email, ...Object.values(other.words)])
        assert.ok(everything.includes(text), `another user's ${text} went too`);
      const events = await direct
        .selectFrom('ticket_events')
        .select(['kind', 'user_id'])
        .where('ticket_id', '=', ticketId)
        .orderBy('id')
        .execute();
      assert.deepEqual(
        events.map((e) => [e.kind, Number(e.user_id)]),
        [
          ['created', 0],
          ['closed', 0],
        ],
      );
      const [task] = await direct
        .selectFrom('tasks')
        .select(['title', 'description'])
        .where('ticket_id', '=', ticketId)
        .execute();
      assert.deepEqual(task, { title: '[erased]', description: '[erased]' });
      const audit = await direct
        .selectFrom('audit_log')
        .select(['api_key_id', 'client_ip', 'operation', 'target_id'])
        .where(
          'id',
          'not in',
          auditBefore.map((row) => Number(row.id)),
        )
        .execute();
      assert.deepEqual(
        audit.map((row) => ({ ...row, api_key_id: Number(row.api_key_id) })),
        [{ api_key_id: 0, client_ip: 'cli', operation: 'users delete', target_id: String(userId) }],
      );
    });
  });

  test('a failure mid-way leaves everything as it was', async () => {
    const { userId, ticketId } = await userWithTicket(server, 'Fay Failure');
    const before = await readTicket(ticketId);
    const everythingBefore = await withDirect(everyRow);
    const args = ['users', 'delete', String(userId), '--anonymise-tickets', '--yes', ...db()];
    if (kind.name === 'sqlite') {
      // SQLite takes its write lock first: the failure mid-way is the database's own, on the
      // erasure's last statement (the user's row), after the tickets were changed.
      await withDirect((direct) =>
        sql`create trigger keep_user before delete on users when old.id = ${sql.lit(userId)}
            begin select raise(abort, 'kept by the test'); end`.execute(direct),
      );
      try {
        const failed = await runCli(args);
        assert.notEqual(failed.code, 0, failed.stderr);
      } finally {
        await withDirect((direct) => sql`drop trigger keep_user`.execute(direct));
      }
    } else {
      // Another session holds the user's row: the erasure waits on it after anonymising the
      // tickets, and its connection is killed there. A third one watches (PostgreSQL shows a
      // transaction one snapshot of pg_stat_activity).
      const sessionKind = kind.name === 'postgres' ? 'postgres' : 'mysql';
      const holder = await openTestSession(sessionKind, database.url);
      const watcher = await openTestSession(sessionKind, database.url);
      try {
        await holder.query('begin');
        await holder.query(`select id from users where id = ${userId} for update`);
        const running = runCli(args);
        const waiting = await waitFor(async () => {
          const ids = await watcher.otherSessions({ waitingForLock: true });
          return ids.length > 0 ? ids : undefined;
        });
        assert.equal(
          waiting?.length,
          1,
          `the erasure never waited on the held row; the test proves nothing: ${await Promise.race([running.then((r) => `${r.code} ${r.stderr}`), new Promise((r) => setTimeout(() => r('(still running)'), 100))])}`,
        );
        await watcher.kill(waiting ?? []);
        const failed = await running;
        assert.notEqual(failed.code, 0, failed.stderr);
        await holder.query('rollback');
      } finally {
        await holder.close();
        await watcher.close();
      }
    }
    assert.equal(await withDirect(everyRow), everythingBefore);
    assert.deepEqual(await readTicket(ticketId), before);
    const user = await server.request({
      query: 'user',
      condition: 'specific',
      parameters: { id: String(userId) },
    });
    assert.equal(user.status, 200, 'the user is kept');
  });
});
