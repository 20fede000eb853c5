import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { createConnection } from 'mysql2/promise';
import {
  collectRequirements,
  tableName,
  tableRequirements,
} from '../../src/data/osticket/osticket-requirements.ts';
import { SERVICE_ENTITIES } from '../../src/server/service-entities.ts';
import { runCli } from '../helpers/cli.ts';
import { MYSQL_ADMIN_URL } from '../helpers/databases.ts';
import { call, topicBody, userBody } from '../helpers/http.ts';
import { grantOsticketKey } from '../helpers/osticket-key-grant.ts';
import { ROOT } from '../helpers/paths.ts';
import { type StartedServer, startServer } from '../helpers/server.ts';
import {
  createOsticketDatabase,
  OSTICKET_DIR,
  OSTICKET_SKIP,
  type OsticketDatabase,
} from './osticket-database.ts';

const DOC = join(ROOT, 'docs', 'replacing-the-osticket-web-service.md');

/** The statements of the doc's grants block, for this database and account. */
function documentedGrants(database: string, account: string): string[] {
  const doc = readFileSync(DOC, 'utf8');
  const block = /<!-- grants:begin -->\s*```sql\n([\s\S]*?)```\s*<!-- grants:end -->/.exec(
    doc,
  )?.[1];
  assert.ok(block, 'the doc has a grants block');
  return block
    .split('\n')
    .filter((line) => line.trim() !== '' && !line.trim().startsWith('--'))
    .join('\n')
    .split(';')
    .map((s) => s.trim())
    .filter(Boolean)
    .map((s) =>
      s.replaceAll('osticket.', `${database}.`).replaceAll("'deskgate'@'%'", `${account}`),
    );
}

/** The CREATE TABLE osTicket runs for `user__cdata`, from the reference schema. */
function contactTableDdl(): string {
  const schema = readFileSync(join(OSTICKET_DIR, 'schema-1.18.1.sql'), 'utf8');
  const ddl = /CREATE TABLE `ost_user__cdata` \([\s\S]*?;/.exec(schema)?.[0];
  assert.ok(ddl);
  return ddl;
}

describe('the documented grants, on a fresh MariaDB user', { skip: OSTICKET_SKIP }, () => {
  let database: OsticketDatabase;
  let server: StartedServer | undefined;
  const user = `dg_${randomBytes(4).toString('hex')}`;
  const account = `'${user}'@'%'`;
  let env: Record<string, string>;

  async function asRoot(statements: readonly string[]): Promise<void> {
    const connection = await createConnection(MYSQL_ADMIN_URL as string);
    try {
      for (const statement of statements) await connection.query(statement);
    } finally {
      await connection.end();
    }
  }

  before(async () => {
    // An install where osTicket has not materialised its contact table yet.
    database = await createOsticketDatabase({ contactTable: false, formerWriteKey: false });
    const url = new URL(database.url);
    url.username = user;
    url.password = 'change-me';
    env = {
      DESKGATE_DATABASE_URL: url.toString(),
      DESKGATE_SCHEMA: 'osticket',
      DESKGATE_OSTICKET_SYSLOG: 'true',
    };
  });
  after(async () => {
    await server?.stop();
    await asRoot([`DROP USER IF EXISTS ${account}`]);
    await database?.drop();
  });

  test('a start short of one privilege stops with one line naming it, and works once granted', async () => {
    const grants = documentedGrants(database.name, account);
    // All but INDEX on deskgate's own tables: the migration creates them, then fails half-way.
    await asRoot(grants.map((s) => s.replace(' INDEX,', '')));
    const refused = await runCli(['serve'], { ...env, PORT: '0' });
    assert.equal(refused.code, 1);
    assert.equal(refused.stderr.trim().split('\n').length, 1, refused.stderr);
    assert.match(
      refused.stderr,
      /^deskgate: the database refused a privilege .*INDEX command denied/,
    );
    const own = await database.query<{ name: string }>(
      "SELECT table_name AS name FROM information_schema.tables WHERE table_schema = DATABASE() AND table_name LIKE 'deskgate%'",
    );
    assert.ok(own.length > 0, 'the first start got half-way');

    await asRoot(grants.filter((s) => s.startsWith('GRANT')));
    // user/add is granted, not osTicket's own right (SPEC §4a): the admin's one command.
    await grantOsticketKey(database, database.writeKey.id);
    server = await startServer({ databaseUrl: env.DESKGATE_DATABASE_URL as string, env });
    const topic = await call(server.url, {
      headers: { apikey: database.writeKey.key },
      body: topicBody(1),
    });
    assert.equal(topic.status, 200, topic.text);
    assert.equal((await call(`${server.origin}/readyz`, { method: 'GET' })).status, 200);
    const first = await call(server.url, {
      method: 'POST',
      headers: { apikey: database.writeKey.key },
      body: userBody({ email: 'granted@example.com', phone: 5551234 }),
    });
    assert.equal(
      first.status,
      200,
      `${first.text}\n${server.output.filter((l) => l.includes('"err')).join('\n')}`,
    );
  });

  test('once osTicket creates user__cdata, the grant given before applies and the cache row is written', async () => {
    assert.ok(server, 'the previous test started the server');
    await database.query(contactTableDdl());
    const reply = await call(server.url, {
      method: 'POST',
      headers: { apikey: database.writeKey.key },
      body: userBody({ email: 'cached@example.com', phone: 5551234 }),
    });
    assert.equal(reply.status, 200, reply.text);
    const rows = await database.query('SELECT phone FROM ost_user__cdata WHERE user_id = ?', [
      Number(reply.body?.data),
    ]);
    assert.deepEqual(rows, [{ phone: '5551234' }]);
    const logged = await database.query('SELECT log_id FROM ost_syslog');
    assert.equal(logged.length, 3, 'one topic call and two users: the syslog grant works');
  });

  test('osTicket dropping and rebuilding user__cdata under a running deskgate stops no creation', async () => {
    assert.ok(server, 'the first test started the server');
    const running = server;
    async function add(email: string): Promise<number> {
      const reply = await call(running.url, {
        method: 'POST',
        headers: { apikey: database.writeKey.key },
        body: userBody({ email, phone: 5551234 }),
      });
      assert.equal(reply.status, 200, `${email}: ${reply.text}`);
      return Number(reply.body?.data);
    }
    const cacheRow = (id: number) =>
      database.query('SELECT phone FROM ost_user__cdata WHERE user_id = ?', [id]);
    const rebuild = async (ddl: string) => {
      await database.query('DROP TABLE IF EXISTS ost_user__cdata');
      await database.query(ddl);
    };
    // Rebuilt without a column deskgate had seen (its insert is refused, it looks again).
    await rebuild(contactTableDdl().replace(/\s*`notes` mediumtext DEFAULT NULL,/, ''));
    assert.deepEqual(await cacheRow(await add('rebuilt.narrower@example.com')), [
      { phone: '5551234' },
    ]);
    // Rebuilt with a column deskgate had not seen (a new contact-form field).
    await rebuild(contactTableDdl());
    assert.deepEqual(await cacheRow(await add('rebuilt.wider@example.com')), [
      { phone: '5551234' },
    ]);
    // Dropped: every other row is written; osTicket builds the table from them later.
    await database.query('DROP TABLE ost_user__cdata');
    const whileDropped = await add('while.dropped@example.com');
    assert.equal(
      (await database.query('SELECT id FROM ost_user WHERE id = ?', [whileDropped])).length,
      1,
    );
    // Created again: the cache row is written again.
    await database.query(contactTableDdl());
    assert.deepEqual(await cacheRow(whileDropped), []);
    assert.deepEqual(await cacheRow(await add('created.again@example.com')), [
      { phone: '5551234' },
    ]);
  });

  // SPEC §8c: every grant the operations need is checked at start, one line naming it.
  for (const [privilege, table] of [
    ['SELECT', 'ost_help_topic'],
    ['INSERT', 'ost_user_email'],
    ['UPDATE', 'ost_user'],
    ['DELETE', 'ost__search'],
  ] as const) {
    test(`a start without ${privilege} on ${table} stops with one line naming it`, async () => {
      await asRoot([`REVOKE ${privilege} ON ${database.name}.${table} FROM ${account}`]);
      try {
        const refused = await runCli(['serve'], { ...env, PORT: '0' });
        assert.equal(refused.code, 1);
        assert.equal(refused.stderr.trim().split('\n').length, 1, refused.stderr);
        assert.match(
          refused.stderr,
          new RegExp(`^deskgate: the database user lacks the ${privilege} grant on ${table} `),
        );
      } finally {
        await asRoot([`GRANT ${privilege} ON ${database.name}.${table} TO ${account}`]);
      }
    });
  }

  test('/readyz: a grant refused while running is named in the log, not in the answer; ready again once granted', async () => {
    assert.ok(server, 'the first test started the server');
    const readyz = (headers: Record<string, string> = {}) =>
      call(`${server?.origin}/readyz`, { method: 'GET', headers });
    assert.equal((await readyz()).status, 200);
    for (const [privilege, table] of [
      ['INSERT', 'ost_form_entry'],
      ['SELECT', 'ost_api_key'],
    ] as const) {
      await asRoot([`REVOKE ${privilege} ON ${database.name}.${table} FROM ${account}`]);
      try {
        const named = `The database refused a grant deskgate needs: ${privilege} on ${table}.`;
        const logged = server?.output.length ?? 0;
        const refused = await readyz();
        assert.equal(refused.status, 503);
        assert.equal(refused.body?.code, 'database_unavailable');
        assert.doesNotMatch(refused.text, new RegExp(`${privilege}|${table}`));
        assert.match(refused.text, /the reason is in the log/);
        // The request line is written just after the answer: wait for it.
        const namesIt = () => server?.output.slice(logged).some((line) => line.includes(named));
        for (let waited = 0; !namesIt() && waited < 3000; waited += 50)
          await new Promise((resolve) => setTimeout(resolve, 50));
        assert.ok(
          namesIt(),
          `the log names the grant:\n${server?.output.slice(logged).join('\n')}`,
        );
        // A key without `admin` learns no more than anyone (the reason needs an admin key).
        const keyed = await readyz({ apikey: database.writeKey.key });
        if (table !== 'ost_api_key') assert.equal(keyed.body?.data, refused.body?.data);
      } finally {
        await asRoot([`GRANT ${privilege} ON ${database.name}.${table} TO ${account}`]);
      }
      assert.equal((await readyz()).status, 200);
    }
  });

  test("the admin writes' grants are demanded only with DESKGATE_OSTICKET_ADMIN_WRITES=true", async () => {
    const adminOnly = tableRequirements(collectRequirements(SERVICE_ENTITIES)).filter(
      (r) => r.adminOnly,
    );
    assert.ok(adminOnly.length > 0);
    const statements = (verb: 'GRANT' | 'REVOKE') =>
      adminOnly.map(
        (r) =>
          `${verb} ${r.privileges.join(', ')} ON ${database.name}.${tableName(r, 'ost_')} ${verb === 'GRANT' ? 'TO' : 'FROM'} ${account}`,
      );
    await asRoot(statements('REVOKE'));
    let started: StartedServer | undefined;
    try {
      started = await startServer({ databaseUrl: env.DESKGATE_DATABASE_URL as string, env });
      assert.equal((await call(`${started.origin}/readyz`, { method: 'GET' })).status, 200);
      await started.stop();
      started = undefined;
      const refused = await runCli(['serve'], {
        ...env,
        PORT: '0',
        DESKGATE_OSTICKET_ADMIN_WRITES: 'true',
      });
      assert.equal(refused.code, 1);
      assert.equal(refused.stderr.trim().split('\n').length, 1, refused.stderr);
      assert.match(refused.stderr, /^deskgate: the database (refused a privilege|user lacks)/);
    } finally {
      await started?.stop();
      await asRoot(statements('GRANT'));
    }
  });

  test('/readyz names the refused grant to an admin key (DESKGATE_OSTICKET_ADMIN_WRITES=true), as documented', async () => {
    const adminEnv = { ...env, DESKGATE_OSTICKET_ADMIN_WRITES: 'true' };
    // The server creates deskgate's admin-key table at its start; the key is made after.
    const started = await startServer({
      databaseUrl: env.DESKGATE_DATABASE_URL as string,
      env: adminEnv,
    });
    const table = 'ost_form_entry';
    try {
      const created = await runCli(
        ['keys', 'create', '--name', 'probe', '--scope', 'admin', '--json'],
        adminEnv,
      );
      assert.equal(created.code, 0, created.stderr);
      const adminKey = (JSON.parse(created.stdout) as { key: string }).key;
      await asRoot([`REVOKE INSERT ON ${database.name}.${table} FROM ${account}`]);
      const readyz = (headers: Record<string, string> = {}) =>
        call(`${started.origin}/readyz`, { method: 'GET', headers });
      const admin = await readyz({ apikey: adminKey });
      assert.equal(admin.status, 503, admin.text);
      assert.equal(
        admin.body?.data,
        `The database refused a grant deskgate needs: INSERT on ${table}.`,
      );
      const anyone = await readyz();
      assert.equal(anyone.status, 503);
      assert.doesNotMatch(anyone.text, /INSERT|ost_form_entry/);
      // A wrong key is a failed authentication, as at the service address.
      assert.equal((await readyz({ apikey: '0'.repeat(32) })).status, 401);
    } finally {
      await asRoot([`GRANT INSERT ON ${database.name}.${table} TO ${account}`]);
      await started.stop();
    }
  });
});
