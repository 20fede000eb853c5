import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { test } from 'node:test';
import { openDatabase } from '../../src/data/open-database.ts';
import { childEnv } from '../helpers/child-env.ts';
import { runCli } from '../helpers/cli.ts';
import { describeEachDatabase, describeWithDatabase, SQLITE } from '../helpers/each-database.ts';
import { type Reply, userFields } from '../helpers/http.ts';
import { ROOT } from '../helpers/paths.ts';
import { type TestServer, useTestServer } from '../helpers/test-server.ts';
import { ticketAddBody } from '../helpers/tickets.ts';
import type { Database } from '../support/own-schema.ts';
import { assertCleanFailure, runCliJson, runCliText } from './cli-assertions.ts';

const HAS_SCRIPT = spawnSync('script', ['--version']).status === 0;

/** `deskgate ARGS` on a pseudo-terminal (util-linux `script`), `typed` sent as its input. */
function runCliOnTerminal(
  args: readonly string[],
  typed: string,
): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const command = ['node', 'bin/deskgate.js', ...args].map((a) => `'${a}'`).join(' ');
    const child = spawn('script', ['-qec', command, '/dev/null'], {
      cwd: ROOT,
      env: childEnv({ PATH: `${process.execPath.replace(/\/node$/, '')}:${process.env.PATH}` }),
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      // Answer once the question is on the terminal.
      if (output.includes('to confirm:') && !child.stdin.writableEnded) child.stdin.end(typed);
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, output }));
  });
}

/** user/add and user/specific on `server`. */
function userRequests(server: TestServer) {
  function addUser(parameters: Record<string, unknown>, idempotencyKey: string): Promise<Reply> {
    return server.request(
      { query: 'user', condition: 'add', parameters },
      { method: 'POST', headers: { 'Idempotency-Key': idempotencyKey } },
    );
  }
  const lookUp = (id: string) =>
    server.request({ query: 'user', condition: 'specific', parameters: { id } });
  return { addUser, lookUp };
}

describeEachDatabase('deskgate users delete', (database) => {
  const server = useTestServer({ database });
  const db = () => ['--database', database.url];
  const { addUser, lookUp } = userRequests(server);

  async function withDirect<T>(
    fn: (direct: ReturnType<typeof openDatabase<Database>>['db']) => Promise<T>,
  ) {
    const { db: direct } = openDatabase<Database>(database.url);
    try {
      return await fn(direct);
    } finally {
      await direct.destroy();
    }
  }

  test('--yes deletes the user, its email and account, and its stored user/add answer, in one audited step', async () => {
    const parameters = userFields({ name: 'Erasable Person', phone: 351219998877 });
    const idempotencyKey = randomUUID();
    const added = await addUser(parameters, idempotencyKey);
    assert.equal(added.status, 200, added.text);
    const id = String(added.body?.data);
    const other = String((await addUser(userFields(), randomUUID())).body?.data);
    assert.equal((await lookUp(id)).status, 200);

    const result = await runCliJson<{ id: number; deleted: boolean }>([
      'users',
      'delete',
      id,
      '--yes',
      ...db(),
    ]);
    assert.deepEqual(result, {
      id: Number(id),
      deleted: true,
      forgotten: { 'stored user/add answers': 1, 'feed events naming the user': 0 },
    });

    assert.equal((await lookUp(id)).status, 204, 'user/specific no longer finds it');
    assert.equal((await lookUp(other)).status, 200, 'other users stay');
    await withDirect(async (direct) => {
      for (const [table, column] of [
        ['users', 'id'],
        ['user_emails', 'user_id'],
        ['user_accounts', 'user_id'],
      ] as const) {
        const rows = await direct
          .selectFrom(table)
          .select(column)
          .where(column, '=', Number(id))
          .execute();
        assert.equal(rows.length, 0, `${table} still holds user ${id}`);
      }
      const audit = await direct
        .selectFrom('audit_log')
        .selectAll()
        .where('operation', '=', 'users delete')
        .execute();
      assert.equal(audit.length, 1);
      assert.deepEqual(
        { ...audit[0], id: undefined, at: undefined },
        {
          id: undefined,
          at: undefined,
          api_key_id: 0,
          client_ip: 'cli',
          operation: 'users delete',
          target_id: id,
        },
      );
      const everything = JSON.stringify(await direct.selectFrom('audit_log').selectAll().execute());
      for (const personal of [parameters.name, parameters.email, String(parameters.phone)])
        assert.ok(!everything.includes(String(personal)), `the audit log holds ${personal}`);
    });

    // No stale answer: a retry of the erased user's request is a new request, not the old id.
    const retried = await addUser(parameters, idempotencyKey);
    assert.equal(retried.status, 200, retried.text);
    assert.notEqual(String(retried.body?.data), id);
  });

  test('an unknown id exits 1; a delete without --json says so, and a second one exits 1', async () => {
    const id = String((await addUser(userFields(), randomUUID())).body?.data);
    assertCleanFailure(
      await runCli(['users', 'delete', '999999', '--yes', ...db()]),
      1,
      /no user with id 999999/,
    );
    const text = await runCliText(['users', 'delete', id, '--yes', ...db()]);
    assert.match(text, new RegExp(`Deleted user ${id}\\b`));
    assertCleanFailure(await runCli(['users', 'delete', id, '--yes', ...db()]), 1, /no user/);
  });

  test('a user named by a ticket is kept: exit 1 before any question, nothing deleted', async () => {
    const id = String(
      (await addUser(userFields({ name: 'Has Tickets' }), randomUUID())).body?.data,
    );
    const ticket = await server.request(ticketAddBody(Number(id)), { method: 'POST' });
    assert.equal(ticket.status, 200, ticket.text);
    for (const args of [['--yes'], ['--yes', '--json']])
      assertCleanFailure(
        await runCli(['users', 'delete', id, ...args, ...db()]),
        1,
        new RegExp(`user ${id} is named by 1 ticket`),
      );
    assert.equal((await lookUp(id)).status, 200);
  });
});

// Refused before the database is opened (the --yes question, a bad id), and the terminal prompt:
// SQLite's database shows nothing was deleted.
describeWithDatabase(
  'deskgate users delete: argument checks and the terminal prompt',
  SQLITE,
  (database) => {
    const server = useTestServer({ database });
    const db = () => ['--database', database.url];
    const { addUser, lookUp } = userRequests(server);

    test('without --yes off a terminal: exit 2, nothing deleted; a bad id exits 2', async () => {
      const id = String((await addUser(userFields(), randomUUID())).body?.data);
      assertCleanFailure(await runCli(['users', 'delete', id, ...db()]), 2, /--yes/);
      assertCleanFailure(await runCli(['users', 'delete', id, ...db(), '--json']), 2, /--yes/);
      assert.equal((await lookUp(id)).status, 200);
      for (const bad of ['abc', '0', '-1'])
        assertCleanFailure(await runCli(['users', 'delete', bad, '--yes', ...db()]), 2);
      assertCleanFailure(
        await runCli(['users', 'delete', id, '--staff', '1', '--yes', ...db()]),
        2,
        /--staff is for osTicket mode/,
      );
      assert.equal((await lookUp(id)).status, 200);
    });

    test('a user named by a ticket, without --yes off a terminal: exit 2, nothing deleted', async () => {
      const id = String(
        (await addUser(userFields({ name: 'Has Tickets' }), randomUUID())).body?.data,
      );
      const ticket = await server.request(ticketAddBody(Number(id)), { method: 'POST' });
      assert.equal(ticket.status, 200, ticket.text);
      assertCleanFailure(await runCli(['users', 'delete', id, ...db()]), 2, /--yes/);
      assert.equal((await lookUp(id)).status, 200);
    });

    test('on a terminal it asks to type the id back: anything else deletes nothing', {
      skip: !HAS_SCRIPT && 'no util-linux script here',
    }, async () => {
      const added = await addUser(userFields({ name: 'Asked First' }), randomUUID());
      const id = String(added.body?.data);
      const refused = await runCliOnTerminal(['users', 'delete', id, ...db()], 'yes\n');
      assert.equal(refused.code, 1, refused.output);
      assert.match(refused.output, /Asked First/);
      assert.match(refused.output, /not deleted/);
      assert.equal((await lookUp(id)).status, 200);
      const confirmed = await runCliOnTerminal(['users', 'delete', id, ...db()], `${id}\n`);
      assert.equal(confirmed.code, 0, confirmed.output);
      assert.equal((await lookUp(id)).status, 204);
    });

    test('with --anonymise-tickets the question says how many tickets it anonymises', {
      skip: !HAS_SCRIPT && 'no util-linux script here',
    }, async () => {
      const id = String(
        (await addUser(userFields({ name: 'Asked About Tickets' }), randomUUID())).body?.data,
      );
      for (let i = 0; i < 2; i++)
        assert.equal(
          (await server.request(ticketAddBody(Number(id)), { method: 'POST' })).status,
          200,
        );
      const args = ['users', 'delete', id, '--anonymise-tickets', ...db()];
      const refused = await runCliOnTerminal(args, 'no\n');
      assert.equal(refused.code, 1, refused.output);
      assert.match(refused.output, /erase what 2 ticket\(s\) hold about them/);
      assert.equal((await lookUp(id)).status, 200);
      const confirmed = await runCliOnTerminal(args, `${id}\n`);
      assert.equal(confirmed.code, 0, confirmed.output);
      assert.match(confirmed.output, /2 anonymised tickets/);
      assert.equal((await lookUp(id)).status, 204);
    });
  },
);
