import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { runCli } from '../helpers/cli.ts';
import { MYSQL_ADMIN_URL } from '../helpers/databases.ts';
import { call, topicBody, userBody } from '../helpers/http.ts';
import { useTestServer } from '../helpers/test-server.ts';
import { createOsticketFixture, type OsticketFixture } from './osticket-fixture.ts';

const skip = MYSQL_ADMIN_URL
  ? false
  : 'skipped: DESKGATE_TEST_MYSQL_URL is not set (osTicket mode runs on MariaDB/MySQL)';

function osticketEnv(fixture: OsticketFixture): Record<string, string> {
  return { DESKGATE_SCHEMA: 'osticket', DESKGATE_TABLE_PREFIX: fixture.prefix };
}

async function showCreateTables(fixture: OsticketFixture): Promise<string[]> {
  const tables = ['help_topic', 'user', 'user_email', 'user_account', 'user__cdata', 'api_key'];
  const out: string[] = [];
  for (const table of tables) {
    const rows = await fixture.query<Record<string, string>>(
      `SHOW CREATE TABLE \`${fixture.prefix}${table}\``,
    );
    out.push(String(rows[0]?.['Create Table']).replace(/ AUTO_INCREMENT=\d+/, ''));
  }
  return out;
}

describe('osTicket mode on MariaDB', { skip }, () => {
  let fixture: OsticketFixture;
  let tablesBefore: string[];

  before(async () => {
    fixture = await createOsticketFixture(MYSQL_ADMIN_URL as string);
    tablesBefore = await showCreateTables(fixture);
  });
  const server = useTestServer(() => ({
    database: fixture.url,
    env: osticketEnv(fixture),
    ownKey: false,
  }));
  after(async () => {
    await fixture?.drop();
  });

  test('topics come from help_topic, mapped to the interface fields', async () => {
    const reply = await call(server.url, {
      headers: { apikey: fixture.writeKey.key },
      body: topicBody(11),
    });
    assert.equal(reply.status, 200);
    const { topic } = (reply.body?.data ?? {}) as { topic: Record<string, string> };
    assert.equal(topic.id, '11');
    assert.equal(topic.parent, '10');
    assert.equal(topic.ispublic, '1');
    assert.equal(topic.sort, '4');
    assert.equal(topic.topic, 'Access Issue');
    assert.match(topic.created ?? '', /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
  });

  test('a non-public topic with NULL notes is returned with ispublic "0" and notes ""', async () => {
    const reply = await call(server.url, {
      headers: { apikey: fixture.writeKey.key },
      body: topicBody(12),
    });
    const { topic } = (reply.body?.data ?? {}) as { topic: Record<string, string> };
    assert.equal(topic.ispublic, '0');
    assert.equal(topic.notes, '');
  });

  test('a missing topic is 204', async () => {
    const reply = await call(server.url, {
      headers: { apikey: fixture.writeKey.key },
      body: topicBody(999),
    });
    assert.equal(reply.status, 204);
  });

  test('keys come from api_key: inactive → 401, other address → 403, no can_create_tickets → no write', async () => {
    const inactive = await call(server.url, {
      headers: { apikey: fixture.inactiveKey.key },
      body: topicBody(1),
    });
    assert.equal(inactive.status, 401);
    assert.equal(inactive.body?.code, 'invalid_api_key');
    const elsewhere = await call(server.url, {
      headers: { apikey: fixture.elsewhereKey.key },
      body: topicBody(1),
    });
    assert.equal(elsewhere.status, 403);
    assert.equal(elsewhere.body?.code, 'ip_not_allowed');
    const readOnlyRead = await call(server.url, {
      headers: { apikey: fixture.readKey.key },
      body: topicBody(1),
    });
    assert.equal(readOnlyRead.status, 200);
    const readOnlyWrite = await call(server.url, {
      method: 'POST',
      headers: { apikey: fixture.readKey.key },
      body: userBody(),
    });
    assert.equal(readOnlyWrite.status, 403);
    assert.equal(readOnlyWrite.body?.code, 'insufficient_scope');
    const unknown = await call(server.url, {
      headers: { apikey: 'ABCDEF0123456789ABCDEF0123456789' },
      body: topicBody(1),
    });
    assert.equal(unknown.status, 401);
  });

  test('a created user has exactly the rows osTicket keeps for a registered user', async () => {
    const email = `Reg.User.${Date.now()}@Example.com`;
    const reply = await call(server.url, {
      method: 'POST',
      headers: { apikey: fixture.writeKey.key },
      body: userBody({
        name: 'Reg User',
        email,
        password: 'plain secret',
        timezone: 'Europe/Lisbon',
        phone: 351210000000,
        org_id: 0,
        default_email_id: 0,
        status: 0,
      }),
    });
    assert.equal(reply.status, 200, reply.text);
    const id = Number(reply.body?.data);
    const p = fixture.prefix;
    const users = await fixture.query<Record<string, unknown>>(
      `SELECT * FROM \`${p}user\` WHERE id = ?`,
      [id],
    );
    const emails = await fixture.query<Record<string, unknown>>(
      `SELECT * FROM \`${p}user_email\` WHERE user_id = ?`,
      [id],
    );
    const accounts = await fixture.query<Record<string, unknown>>(
      `SELECT * FROM \`${p}user_account\` WHERE user_id = ?`,
      [id],
    );
    const contacts = await fixture.query<Record<string, unknown>>(
      `SELECT * FROM \`${p}user__cdata\` WHERE user_id = ?`,
      [id],
    );
    assert.equal(users.length, 1);
    assert.equal(emails.length, 1);
    assert.equal(accounts.length, 1);
    assert.equal(contacts.length, 1);
    const [user, userEmail, account, contact] = [
      users[0],
      emails[0],
      accounts[0],
      contacts[0],
    ] as Record<string, unknown>[];
    assert.deepEqual(
      {
        org_id: user?.org_id,
        default_email_id: user?.default_email_id,
        status: user?.status,
        name: user?.name,
      },
      { org_id: 0, default_email_id: userEmail?.id, status: 0, name: 'Reg User' },
    );
    assert.match(String(user?.created), /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
    assert.equal(user?.created, user?.updated);
    assert.deepEqual(
      { user_id: userEmail?.user_id, flags: userEmail?.flags, address: userEmail?.address },
      { user_id: id, flags: 0, address: email },
    );
    assert.equal(account?.status, 1, 'the account is confirmed');
    assert.equal(account?.timezone, 'Europe/Lisbon');
    assert.match(
      String(account?.passwd),
      /^\$2y\$\d\d\$[./A-Za-z0-9]{53}$/,
      'a bcrypt hash PHP verifies',
    );
    assert.equal(account?.username, null);
    assert.equal(account?.backend, null);
    assert.match(String(account?.registered), /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
    assert.deepEqual(
      { email: contact?.email, name: contact?.name, phone: contact?.phone },
      { email, name: 'Reg User', phone: '351210000000' },
    );
    const audit = await fixture.query<Record<string, unknown>>(
      'SELECT * FROM deskgate_audit_log WHERE target_id = ?',
      [String(id)],
    );
    assert.equal(audit.length, 1);
    assert.equal(audit[0]?.api_key_id, fixture.writeKey.id);
  });

  test('an address taken in another case is a 409 naming the holder, and nothing is written', async () => {
    const email = `dup.${Date.now()}@example.com`;
    const first = await call(server.url, {
      method: 'POST',
      headers: { apikey: fixture.writeKey.key },
      body: userBody({ email }),
    });
    assert.equal(first.status, 200);
    const [{ n: before }] = (await fixture.query<{ n: number }>(
      `SELECT COUNT(*) AS n FROM \`${fixture.prefix}user\``,
    )) as [{ n: number }];
    const second = await call(server.url, {
      method: 'POST',
      headers: { apikey: fixture.writeKey.key },
      body: userBody({ email: email.toUpperCase() }),
    });
    assert.equal(second.status, 409);
    assert.equal(second.body?.existing_id, first.body?.data);
    const [{ n: afterCount }] = (await fixture.query<{ n: number }>(
      `SELECT COUNT(*) AS n FROM \`${fixture.prefix}user\``,
    )) as [{ n: number }];
    assert.equal(afterCount, before);
  });

  test('50 simultaneous adds of one address in mixed case give one user', async () => {
    const email = `race.${Date.now()}@example.com`;
    const replies = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        call(server.url, {
          method: 'POST',
          headers: { apikey: fixture.writeKey.key },
          body: userBody({ email: i % 2 ? email.toUpperCase() : email }),
        }),
      ),
    );
    assert.equal(replies.filter((r) => r.status === 200).length, 1);
    assert.equal(replies.filter((r) => r.status === 409).length, 49);
    const rows = await fixture.query<{ user_id: number }>(
      `SELECT user_id FROM \`${fixture.prefix}user_email\` WHERE address = ?`,
      [email],
    );
    assert.equal(rows.length, 1);
    const accounts = await fixture.query(
      `SELECT id FROM \`${fixture.prefix}user_account\` WHERE user_id = ?`,
      [rows[0]?.user_id],
    );
    assert.equal(accounts.length, 1);
  });

  test("osTicket's tables are never altered; deskgate's own sit beside them", async () => {
    assert.deepEqual(await showCreateTables(fixture), tablesBefore);
    const own = await fixture.query<{ name: string }>(
      "SELECT table_name AS name FROM information_schema.tables WHERE table_schema = DATABASE() AND table_name LIKE 'deskgate%' ORDER BY 1",
    );
    assert.deepEqual(
      own.map((r) => r.name),
      [
        'deskgate_audit_log',
        'deskgate_idempotency_keys',
        'deskgate_migration',
        'deskgate_migration_lock',
      ],
    );
  });

  test('the CLI reads osTicket topics and users, and leaves topics and keys to osTicket', async () => {
    const env = { DESKGATE_DATABASE_URL: fixture.url, ...osticketEnv(fixture) };
    const list = await runCli(['topics', 'list', '--json'], env);
    assert.equal(list.code, 0, list.stderr);
    assert.deepEqual(
      (JSON.parse(list.stdout) as { id: number }[]).map((t) => t.id),
      [1, 2, 10, 11, 12],
    );
    const add = await runCli(['topics', 'add', '--topic', 'New'], env);
    assert.equal(add.code, 1);
    assert.match(add.stderr, /osTicket/);
    const keys = await runCli(['keys', 'create', '--name', 'x'], env);
    assert.equal(keys.code, 1);
    assert.match(keys.stderr, /osTicket/);
    const keyList = await runCli(['keys', 'list', '--json'], env);
    assert.equal(keyList.code, 0, keyList.stderr);
    assert.ok(!keyList.stdout.includes(fixture.writeKey.key), 'keys list never shows a key');
  });
});

describe('osTicket mode without the contact table and with another prefix', { skip }, () => {
  let fixture: OsticketFixture;

  before(async () => {
    fixture = await createOsticketFixture(MYSQL_ADMIN_URL as string, {
      prefix: 'helpdesk_',
      contactTable: false,
    });
  });
  const server = useTestServer(() => ({
    database: fixture.url,
    env: osticketEnv(fixture),
    ownKey: false,
  }));
  after(async () => {
    await fixture?.drop();
  });

  test('user creation works and writes no contact row', async () => {
    const reply = await call(server.url, {
      method: 'POST',
      headers: { apikey: fixture.writeKey.key },
      body: userBody(),
    });
    assert.equal(reply.status, 200, reply.text);
    const users = await fixture.query('SELECT id FROM helpdesk_user');
    assert.equal(users.length, 1);
  });

  test('a wrong prefix stops the start with one line naming the missing tables', async () => {
    const result = await runCli(['serve'], {
      DESKGATE_DATABASE_URL: fixture.url,
      DESKGATE_SCHEMA: 'osticket',
      PORT: '0',
    });
    assert.equal(result.code, 1);
    assert.match(result.stderr, /ost_help_topic/);
    assert.doesNotMatch(result.stderr, /\n\s+at /);
  });
});
