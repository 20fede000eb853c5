import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { assertCleanFailure, runCliJson, runCliText } from '../cli/cli-assertions.ts';
import { runCli } from '../helpers/cli.ts';
import type { Reply } from '../helpers/http.ts';
import { grantOsticketKey } from '../helpers/osticket-key-grant.ts';
import { useTestServer } from '../helpers/test-server.ts';
import {
  createOsticketDatabase,
  OSTICKET_SKIP,
  type OsticketDatabase,
  osticketEnv,
} from './osticket-database.ts';

interface Listed {
  id: number;
  canCreateTickets: boolean;
  scopes: string[];
  agents: number[] | 'any';
  grant: { scopes: string[] } | null;
}

// Issue 32, items 1 and 2 (SPEC §4a): an osTicket key gets through deskgate only what osTicket
// lets it do; the rest is `deskgate osticket keys grant`, per key id, as the CLI's child process.
describe('osTicket keys: their own rights, and grants', { skip: OSTICKET_SKIP }, () => {
  let db: OsticketDatabase;
  let agentId: number;
  let otherId: number;

  before(async () => {
    db = await createOsticketDatabase({ formerWriteKey: false });
    await db.query("SET SESSION sql_mode = ''");
    const staff = (username: string) =>
      db.insert(
        `INSERT INTO ost_staff (dept_id, role_id, username, firstname, lastname, email, signature, created, updated)
         VALUES (1, 1, ?, 'A', 'Gent', ?, '', NOW(), NOW())`,
        [username, `${username}@example.com`],
      );
    agentId = await staff('alex');
    otherId = await staff('olga');
  });
  after(async () => {
    await db?.drop();
  });

  const server = useTestServer(() => ({ database: db.url, env: osticketEnv(db), ownKey: false }));
  const env = () => ({ DESKGATE_SCHEMA: 'osticket', DESKGATE_TABLE_PREFIX: db.prefix });
  const cli = (...args: string[]) => [...args, '--database', db.url];
  const send = (query: string, condition: string, parameters: object, method = 'GET') =>
    server.request({ query, condition, parameters }, { key: db.writeKey.key, method });
  const codeOf = (reply: Reply) => `${reply.status} ${String(reply.body?.code ?? '')}`;

  test('an ungranted "Can Create Tickets" key reads topics and nothing else; replies as no agent', async () => {
    assert.equal((await send('topics', 'specific', { id: 1 })).status, 200);
    for (const [query, condition, parameters, method] of [
      ['ticket', 'all', {}, 'GET'],
      ['ticket', 'specific', { id: 1 }, 'GET'],
      ['tasks', 'all', {}, 'GET'],
      ['user', 'all', {}, 'GET'],
      ['user', 'specific', { id: 1 }, 'GET'],
      ['user', 'add', { name: 'X', email: 'x@example.com', password: 'Secret-123' }, 'POST'],
    ] as const) {
      const refused = await send(query, condition, parameters, method);
      assert.equal(codeOf(refused), '403 insufficient_scope', `${query}/${condition}`);
      // The refusal names the admin's one command.
      assert.match(
        String(refused.body?.data),
        new RegExp(
          `An admin can grant it: deskgate osticket keys grant ${db.writeKey.id} --scope \\S*`,
        ),
      );
      // Tasks need the notes grant too: the one command gives both, not one 403 after another.
      if (query === 'tasks')
        assert.match(String(refused.body?.data), /--scope \S*tickets:read\S* --notes/);
    }
    for (const [condition, parameters] of [
      ['reply', { ticket_id: 1, body: 'x', staff_id: agentId }],
      ['close', { ticket_id: 1, staff_id: agentId, status_id: 3 }],
    ] as const) {
      const refused = await send('ticket', condition, parameters, 'POST');
      assert.equal(codeOf(refused), '403 agent_not_allowed', refused.text);
      assert.match(
        String(refused.body?.data),
        new RegExp(
          `deskgate osticket keys grant ${db.writeKey.id} --scope tickets:write --agent ${agentId}`,
        ),
      );
    }
    // The list says what it may write: ticket/add, not tickets:write (which reads as reply and close).
    const row = (await runCliText(cli('osticket', 'keys', 'list'), env()))
      .split('\n')
      .find((line) => line.startsWith(`${db.writeKey.id} `));
    assert.match(row ?? '', / read,ticket\/add /);
    assert.doesNotMatch(row ?? '', /tickets:write/);
  });

  test('a key without "Can Create Tickets" reads topics, but not users', async () => {
    const read = (query: string, condition: string, parameters: object) =>
      server.request({ query, condition, parameters }, { key: db.readKey.key });
    assert.equal((await read('topics', 'all', {})).status, 200);
    const users = await read('user', 'specific', { id: 1 });
    assert.equal(codeOf(users), '403 insufficient_scope', users.text);
  });

  test('grant: scopes and agents apply at once; staff_id outside → 403 naming the grant; revoke takes it back', async () => {
    const granted = await runCliJson<Listed>(
      cli(
        'osticket',
        'keys',
        'grant',
        String(db.writeKey.id),
        '--scope',
        'tickets:read,users:read',
        '--agent',
        String(agentId),
      ),
      env(),
    );
    assert.deepEqual(granted.scopes, ['read', 'users:read', 'tickets:read', 'tickets:write']);
    assert.deepEqual(granted.agents, [agentId]);
    const byStatus = { status: 0 };
    const range = { start_date: '2020-01-01', end_date: '2030-01-01' };
    const granted200 = async (query: string, parameters: object, sort?: string) => {
      const reply = await server.request(
        { query, condition: 'all', ...(sort ? { sort } : {}), parameters },
        { key: db.writeKey.key },
      );
      assert.ok(reply.status === 200 || reply.status === 204, reply.text);
    };
    await granted200('ticket', byStatus, 'status');
    await granted200('user', range);
    assert.equal(codeOf(await send('user', 'add', {}, 'POST')), '403 insufficient_scope');
    const refused = await send(
      'ticket',
      'reply',
      { ticket_id: 1, body: 'x', staff_id: otherId },
      'POST',
    );
    assert.equal(codeOf(refused), '403 agent_not_allowed');
    assert.match(
      String(refused.body?.data),
      new RegExp(
        `deskgate osticket keys grant ${db.writeKey.id} --scope users:read,tickets:read,tickets:write --agent ${agentId},${otherId}`,
      ),
    );
    // Its agent: past the key's check, to the bridge (not set up here: 501, nothing written).
    assert.equal(
      codeOf(await send('ticket', 'reply', { ticket_id: 1, body: 'x' }, 'POST')),
      '501 requires_osticket_bridge',
    );
    const listed = await runCliJson<Listed[]>(cli('osticket', 'keys', 'list'), env());
    const mine = listed.find((key) => key.id === db.writeKey.id);
    assert.deepEqual(mine?.grant?.scopes, ['users:read', 'tickets:read']);
    assert.equal(listed.find((key) => key.id === db.readKey.id)?.grant, null);
    assert.match(await runCliText(cli('osticket', 'keys', 'list'), env()), /writes tickets|agent/);

    await runCliText(cli('osticket', 'keys', 'revoke', String(db.writeKey.id)), env());
    assert.equal(
      codeOf(
        await server.request(
          { query: 'ticket', condition: 'all', sort: 'status', parameters: byStatus },
          { key: db.writeKey.key },
        ),
      ),
      '403 insufficient_scope',
    );
    assert.equal(
      (await send('topics', 'specific', { id: 1 })).status,
      200,
      "osTicket's own right stays",
    );
  });

  test('bad grants: unknown key or agent → exit 1, admin or no --scope → exit 2; nothing written', async () => {
    const before = await runCliJson<Listed[]>(cli('osticket', 'keys', 'list'), env());
    assertCleanFailure(
      await runCli(cli('osticket', 'keys', 'grant', '999999', '--scope', 'tickets:read'), env()),
      1,
      /osTicket has no API key with id 999999/,
    );
    assertCleanFailure(
      await runCli(
        cli(
          'osticket',
          'keys',
          'grant',
          String(db.readKey.id),
          '--scope',
          'tickets:write',
          '--agent',
          '999999',
        ),
        env(),
      ),
      1,
      /no agent .*999999/,
    );
    assertCleanFailure(
      await runCli(
        cli('osticket', 'keys', 'grant', String(db.readKey.id), '--scope', 'admin'),
        env(),
      ),
      2,
      /--scope/,
    );
    assertCleanFailure(
      await runCli(cli('osticket', 'keys', 'grant', String(db.readKey.id)), env()),
      2,
      /--scope/,
    );
    assertCleanFailure(
      await runCli(cli('osticket', 'keys', 'revoke', '999999'), env()),
      1,
      /no API key with id 999999/,
    );
    // deskgate's own admin keys write no tickets: no agents for them.
    assertCleanFailure(
      await runCli(cli('keys', 'create', '--name', 'a', '--scope', 'admin', '--agent', '1'), env()),
      1,
      /admin keys write no tickets/,
    );
    assert.deepEqual(await runCliJson<Listed[]>(cli('osticket', 'keys', 'list'), env()), before);
  });

  test('a key without "Can Create Tickets" granted tickets:write replies as its one agent', async () => {
    await grantOsticketKey(db, db.readKey.id, [
      '--scope',
      'tickets:write',
      '--agent',
      String(otherId),
    ]);
    const reply = await server.request(
      { query: 'ticket', condition: 'reply', parameters: { ticket_id: 1, body: 'x' } },
      { key: db.readKey.key, method: 'POST' },
    );
    assert.equal(codeOf(reply), '501 requires_osticket_bridge');
  });
});

describe('osticket keys on the own schema', () => {
  test("refused with one line, exit 1: the commands are osTicket mode's", async (t) => {
    const dir = mkdtempSync(join(tmpdir(), 'deskgate-keys-'));
    t.after(() => rmSync(dir, { recursive: true, force: true }));
    const database = ['--database', `sqlite:${join(dir, 'own.db')}`];
    await runCliText(['migrate', ...database]);
    assertCleanFailure(
      await runCli(['osticket', 'keys', 'list', ...database]),
      1,
      /osTicket mode only/,
    );
  });
});
