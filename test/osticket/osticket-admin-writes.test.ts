import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { assertCleanFailure } from '../cli/cli-assertions.ts';
import { runCli } from '../helpers/cli.ts';
import { call } from '../helpers/http.ts';
import { type StartedServer, startServer } from '../helpers/server.ts';
import {
  createOsticketDatabase,
  OSTICKET_SKIP,
  type OsticketDatabase,
  osticketEnv,
} from './osticket-database.ts';

const ADMIN_WRITES = { DESKGATE_OSTICKET_ADMIN_WRITES: 'true' };

describe("osTicket mode: deskgate's admin keys (the admin writes themselves: src/operations/department-add/, sla-add/, sla-delete/)", {
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

  test('a revoked admin key stops at once', async () => {
    const env = { ...osticketEnv(database), ...ADMIN_WRITES };
    const revoked = await runCli(['keys', 'revoke', String(adminKeyId)], env);
    assert.equal(revoked.code, 0, revoked.stderr);
    const reply = await send(adminKey, 'add', 'department', { name: 'Late' });
    assert.equal(reply.status, 401, reply.text);
  });
});
