import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { assertCleanFailure } from '../cli/cli-assertions.ts';
import { runCli } from '../helpers/cli.ts';
import { call, type Reply } from '../helpers/http.ts';
import { type StartedServer, startServer } from '../helpers/server.ts';
import {
  createOsticketDatabase,
  OSTICKET_SKIP,
  type OsticketDatabase,
  osticketEnv,
} from './osticket-database.ts';

const ADMIN_WRITES = { DESKGATE_OSTICKET_ADMIN_WRITES: 'true' };

function dataOf(reply: Reply): string {
  assert.equal(reply.status, 200, reply.text);
  return reply.body?.data as string;
}

describe('osTicket mode: admin keys of deskgate and the admin writes', {
  skip: OSTICKET_SKIP,
}, () => {
  let database: OsticketDatabase;
  let server: StartedServer | undefined;
  let adminKey: string;
  let adminKeyId: number;

  const send = (key: string, condition: string, query: string, parameters: object) =>
    call((server as StartedServer).url, {
      method: condition === 'delete' ? 'DELETE' : 'POST',
      headers: { apikey: key },
      body: { query, condition, parameters },
    });

  before(async () => {
    database = await createOsticketDatabase();
    // What a fresh osTicket has: its default plan, named as the help desk's default, and a department.
    await database.query(
      "INSERT INTO ost_sla (id, flags, grace_period, name, notes, created, updated) VALUES (1, 3, 18, 'Default SLA', NULL, NOW(), NOW())",
    );
    await database.query(
      "INSERT INTO ost_config (namespace, `key`, value) VALUES ('core', 'default_sla_id', '1')",
    );
    await database.query(
      "INSERT INTO ost_department (id, sla_id, flags, name, signature, ispublic, path, updated, created) VALUES (1, 0, 4, 'Support', '', 1, '/1/', NOW(), NOW())",
    );
    const migrated = await runCli(['migrate'], osticketEnv(database));
    assert.equal(migrated.code, 0, migrated.stderr);
  });
  after(async () => {
    await server?.stop();
    await database?.drop();
  });

  test('without DESKGATE_OSTICKET_ADMIN_WRITES no key is made and no admin table exists', async () => {
    const env = osticketEnv(database);
    const admin = await runCli(['keys', 'create', '--name', 'ops', '--scope', 'admin'], env);
    assertCleanFailure(admin, 1, /DESKGATE_OSTICKET_ADMIN_WRITES=true/);
    const read = await runCli(['keys', 'create', '--name', 'ops'], env);
    assertCleanFailure(read, 1, /managed in osTicket's admin panel.*only --scope admin/);
    const tables = await database.query(
      "SELECT table_name FROM information_schema.tables WHERE table_schema = DATABASE() AND table_name = 'deskgate_api_keys'",
    );
    assert.deepEqual(tables, []);
  });

  test('with it, keys create --scope admin makes a hashed key in deskgate_api_keys; only admin', async () => {
    const env = { ...osticketEnv(database), ...ADMIN_WRITES };
    // The table is made at start (or by migrate), not by a versioned migration.
    const migrated = await runCli(['migrate'], env);
    assert.equal(migrated.code, 0, migrated.stderr);
    const mixed = await runCli(['keys', 'create', '--name', 'x', '--scope', 'read,admin'], env);
    assertCleanFailure(mixed, 1, /only --scope admin/);
    const made = await runCli(
      ['keys', 'create', '--name', 'ops', '--scope', 'admin', '--json'],
      env,
    );
    assert.equal(made.code, 0, made.stderr);
    const created = JSON.parse(made.stdout) as { id: number; key: string; scopes: string[] };
    assert.deepEqual(created.scopes, ['admin']);
    assert.ok(created.id >= 1_000_001, `${created.id} is above osTicket's key ids`);
    adminKey = created.key;
    adminKeyId = created.id;
    const stored = await database.query<{ key_hash: string }>(
      'SELECT key_hash FROM deskgate_api_keys',
    );
    assert.equal(stored.length, 1);
    assert.notEqual(stored[0]?.key_hash, adminKey);
    assert.doesNotMatch(JSON.stringify(stored), new RegExp(adminKey, 'i'));
    const listed = await runCli(['keys', 'list', '--json'], env);
    const ids = (JSON.parse(listed.stdout) as { id: number }[]).map((k) => k.id);
    assert.ok(ids.includes(database.writeKey.id) && ids.includes(adminKeyId), listed.stdout);
    server = await startServer({ databaseUrl: database.url, env });
  });

  test("department/add writes the admin panel's row; osTicket's keys cannot", async () => {
    const refused = await send(database.writeKey.key, 'add', 'department', { name: 'Billing' });
    assert.equal(refused.status, 403, refused.text);
    const id = dataOf(
      await send(adminKey, 'add', 'department', {
        name: 'Billing',
        signature: 'Bills & <b>fees</b>',
      }),
    );
    const [row] = await database.query<Record<string, unknown>>(
      'SELECT pid, sla_id, flags, name, signature, ispublic, group_membership, ticket_auto_response, message_auto_response, path FROM ost_department WHERE id = ?',
      [Number(id)],
    );
    assert.deepEqual(row, {
      pid: null,
      sla_id: 0,
      flags: 4,
      name: 'Billing',
      signature: 'Bills &amp; &lt;b&gt;fees&lt;/b&gt;',
      ispublic: 1,
      group_membership: 1,
      ticket_auto_response: 1,
      message_auto_response: 1,
      path: `/${id}/`,
    });
    const tagged = await send(adminKey, 'add', 'department', { name: '<i>Sales</i>' });
    assert.equal(tagged.status, 400, tagged.text);
    const audit = await database.query<{ api_key_id: number; operation: string }>(
      'SELECT api_key_id, operation FROM deskgate_audit_log',
    );
    assert.deepEqual(audit, [{ api_key_id: adminKeyId, operation: 'department/add' }]);
  });

  test('sla/add escapes the name as osTicket stores it; sla/delete refuses the default and cascades in one transaction', async () => {
    const id = Number(
      dataOf(
        await send(adminKey, 'add', 'sla', {
          name: 'Bronze & <b>12h</b>',
          grace_period: 12,
          flags: 1,
        }),
      ),
    );
    const [plan] = await database.query<Record<string, unknown>>(
      'SELECT flags, grace_period, name, created = updated AS same FROM ost_sla WHERE id = ?',
      [id],
    );
    assert.deepEqual(plan, {
      flags: 1,
      grace_period: 12,
      name: 'Bronze &amp; &lt;b&gt;12h&lt;/b&gt;',
      same: 1,
    });
    const grace = await send(adminKey, 'add', 'sla', { name: 'Long', grace_period: 8761 });
    assert.equal(grace.status, 400, grace.text);
    const byDefault = await send(adminKey, 'delete', 'sla', { id: 1 });
    assert.equal(byDefault.status, 400, byDefault.text);

    await database.query('UPDATE ost_department SET sla_id = ? WHERE id = 1', [id]);
    await database.query('UPDATE ost_help_topic SET sla_id = ? WHERE topic_id = 2', [id]);
    const ticket = await database.insert(
      "INSERT INTO ost_ticket (number, user_id, dept_id, sla_id, created, updated) VALUES ('900001', 1, 1, ?, NOW(), NOW())",
      [id],
    );
    const state = () =>
      Promise.all([
        database.query('SELECT id FROM ost_sla ORDER BY id'),
        database.query('SELECT sla_id FROM ost_department WHERE id = 1'),
        database.query('SELECT sla_id FROM ost_help_topic WHERE topic_id = 2'),
        database.query('SELECT sla_id FROM ost_ticket WHERE ticket_id = ?', [ticket]),
      ]);
    // The last statement of the cascade fails: nothing of the delete may stay.
    const before = await state();
    await database.query(
      "CREATE TRIGGER refuse_ticket_update BEFORE UPDATE ON ost_ticket FOR EACH ROW SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'refused'",
    );
    try {
      const failed = await send(adminKey, 'delete', 'sla', { id });
      assert.equal(failed.status, 500, failed.text);
    } finally {
      await database.query('DROP TRIGGER refuse_ticket_update');
    }
    assert.deepEqual(await state(), before);

    assert.equal(dataOf(await send(adminKey, 'delete', 'sla', { id })), String(id));
    const [plans, department, topic, stored] = await state();
    assert.deepEqual(plans, [{ id: 1 }]);
    assert.deepEqual(department, [{ sla_id: 0 }]);
    assert.deepEqual(topic, [{ sla_id: 0 }]);
    assert.deepEqual(stored, [{ sla_id: 1 }]);
  });

  test('a revoked admin key stops at once', async () => {
    const env = { ...osticketEnv(database), ...ADMIN_WRITES };
    const revoked = await runCli(['keys', 'revoke', String(adminKeyId)], env);
    assert.equal(revoked.code, 0, revoked.stderr);
    const reply = await send(adminKey, 'add', 'department', { name: 'Late' });
    assert.equal(reply.status, 401, reply.text);
  });
});
