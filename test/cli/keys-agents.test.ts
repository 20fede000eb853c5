import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'kysely';
import { openDatabase } from '../../src/data/open-database.ts';
import { now } from '../../src/data/time.ts';
import { runCli } from '../helpers/cli.ts';
import { tableRows } from '../helpers/cli-data.ts';
import { DATABASES, type TestDatabase } from '../helpers/databases.ts';
import { describeEachDatabase } from '../helpers/each-database.ts';
import { call, type Reply } from '../helpers/http.ts';
import { useTestServer } from '../helpers/test-server.ts';
import { addAgent, addUser, ticketAddBody } from '../helpers/tickets.ts';
import { migrateBefore } from '../support/migrate-before.ts';
import { assertCleanFailure, runCliJson, runCliText } from './cli-assertions.ts';

interface IssuedKey {
  id: number;
  key: string;
  scopes: string[];
  agents?: number[] | 'any';
}

// Issue 32, item 2: a key that writes tickets acts only as the agents it was given (SPEC §4a).
describeEachDatabase('keys create --agent / --any-agent', (database) => {
  const server = useTestServer({ database });
  const db = () => ['--database', database.url];
  let agentId: number;
  let otherId: number;
  let ticketId: string;

  before(async () => {
    agentId = await addAgent(server.store, 'Alex Agent');
    otherId = await addAgent(server.store, 'Olga Other');
    const userId = await addUser(server.store);
    const opened = await server.request(ticketAddBody(userId), { method: 'POST' });
    ticketId = String(opened.body?.data);
  });

  const reply = (key: string, staffId?: number): Promise<Reply> =>
    call(server.url, {
      method: 'POST',
      headers: { apikey: key },
      body: {
        query: 'ticket',
        condition: 'reply',
        parameters: {
          ticket_id: ticketId,
          body: 'On it.',
          ...(staffId ? { staff_id: staffId } : {}),
        },
      },
    });

  test('--agent: the key replies as that agent only; the refusal names the command that fixes it', async () => {
    const created = await runCliJson<IssuedKey>([
      'keys',
      'create',
      '--name',
      'desk',
      '--scope',
      'tickets:write',
      '--agent',
      String(agentId),
      ...db(),
    ]);
    assert.deepEqual(created.agents, [agentId]);
    assert.equal((await reply(created.key, agentId)).status, 200);
    assert.equal((await reply(created.key)).status, 200, 'its one agent: staff_id may be left out');
    const refused = await reply(created.key, otherId);
    assert.equal(refused.status, 403, refused.text);
    assert.equal(refused.body?.code, 'agent_not_allowed');
    assert.match(
      String(refused.body?.data),
      new RegExp(`deskgate keys create .*--agent ${otherId}`),
    );
    // keys rotate keeps the agents.
    const rotated = await runCliJson<IssuedKey>(['keys', 'rotate', String(created.id), ...db()]);
    assert.deepEqual(rotated.agents, [agentId]);
    assert.equal((await reply(rotated.key, otherId)).status, 403);
  });

  test('without --agent a tickets:write key replies as no one; --any-agent as anyone; the text says which', async () => {
    const none = await runCliJson<IssuedKey>(['keys', 'create', '--name', 'none', ...db()]);
    assert.equal(none.agents, undefined);
    assert.equal((await reply(none.key, agentId)).body?.code, 'agent_not_allowed');
    const any = await runCliJson<IssuedKey>([
      'keys',
      'create',
      '--name',
      'any',
      '--any-agent',
      ...db(),
    ]);
    assert.equal(any.agents, 'any');
    assert.equal((await reply(any.key, otherId)).status, 200);
    const text = await runCliText([
      'keys',
      'create',
      '--name',
      'shown',
      '--agent',
      `${agentId},${otherId}`,
      ...db(),
    ]);
    assert.match(text, new RegExp(`writes tickets as agents ${agentId}, ${otherId}`));
  });

  test('bad --agent input: a usage error or a clear failure, and no key made', async () => {
    const before = await tableRows(database.url, 'api_keys');
    assertCleanFailure(
      await runCli(['keys', 'create', '--name', 'x', '--agent', '1', '--any-agent', ...db()]),
      2,
      /not both/,
    );
    assertCleanFailure(
      await runCli(['keys', 'create', '--name', 'x', '--agent', 'one', ...db()]),
      2,
      /--agent/,
    );
    assertCleanFailure(
      await runCli(['keys', 'create', '--name', 'x', '--agent', '999999', ...db()]),
      1,
      /no agent with id 999999/,
    );
    assert.deepEqual(await tableRows(database.url, 'api_keys'), before);
  });
});

// Decision 312: on upgrade a key that could write tickets keeps acting as any agent (as its
// admin made it); every other key gets none.
for (const kind of DATABASES) {
  describe(`keys made before migration 010, on ${kind.name}`, () => {
    let database: TestDatabase;
    before(async () => {
      database = await kind.create();
      await migrateBefore(database.url, '010');
      const { db } = openDatabase(database.url);
      try {
        for (const [name, scopes] of [
          ['writer', 'read,write,tickets:write'],
          ['reader', 'read,tickets:read'],
        ] as const) {
          await sql`insert into api_keys (name, key_hash, scopes, allow_ips, created_at)
            values (${name}, ${name.padEnd(64, '0')}, ${scopes}, '[]', ${now()})`.execute(db);
        }
      } finally {
        await db.destroy();
      }
    });
    after(async () => {
      await database?.drop();
    });

    test('after migrate: the ticket writer acts as any agent, the reader as none', async () => {
      await runCliText(['migrate', '--database', database.url]);
      const keys = await runCliJson<{ name: string; agents: number[] | 'any' }[]>([
        'keys',
        'list',
        '--database',
        database.url,
      ]);
      assert.deepEqual(
        keys.map((k) => [k.name, k.agents]),
        [
          ['writer', 'any'],
          ['reader', []],
        ],
      );
      // The text table tells the admin which keys still act as any agent.
      assert.match(
        await runCliText(['keys', 'list', '--database', database.url]),
        /writer .*any agent/,
      );
    });
  });
}
