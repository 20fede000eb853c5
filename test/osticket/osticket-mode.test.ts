import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { runCli } from '../helpers/cli.ts';
import { call, topicBody, userBody } from '../helpers/http.ts';
import { useTestServer } from '../helpers/test-server.ts';
import {
  createOsticketDatabase,
  OSTICKET_SKIP,
  type OsticketDatabase,
  osticketEnv,
} from './osticket-database.ts';

const skip = OSTICKET_SKIP;

/** Every osTicket table, as SHOW CREATE TABLE prints it (AUTO_INCREMENT counters left out). */
async function showCreateTables(database: OsticketDatabase): Promise<string[]> {
  const tables = await database.query<{ name: string }>(
    `SELECT table_name AS name FROM information_schema.tables
     WHERE table_schema = DATABASE() AND table_name LIKE ? ORDER BY 1`,
    [`${database.prefix}%`],
  );
  const out: string[] = [];
  for (const { name } of tables) {
    const rows = await database.query<Record<string, string>>(`SHOW CREATE TABLE \`${name}\``);
    out.push(String(rows[0]?.['Create Table']).replace(/ AUTO_INCREMENT=\d+/, ''));
  }
  return out;
}

function topicOf(reply: { body?: { data?: unknown } }): Record<string, string> {
  return ((reply.body?.data ?? {}) as { topic: Record<string, string> }).topic;
}

describe("osTicket mode on osTicket 1.18.1's own schema", { skip }, () => {
  let database: OsticketDatabase;
  let tablesBefore: string[];

  before(async () => {
    database = await createOsticketDatabase();
    tablesBefore = await showCreateTables(database);
  });
  const server = useTestServer(() => ({
    database: database.url,
    env: osticketEnv(database),
    ownKey: false,
  }));
  after(async () => {
    await database?.drop();
  });

  test('a topic is read from the real columns, created/updated exactly as stored', async () => {
    const reply = await call(server.url, {
      headers: { apikey: database.writeKey.key },
      body: topicBody(11),
    });
    assert.equal(reply.status, 200, reply.text);
    assert.deepEqual(topicOf(reply), {
      id: '11',
      parent: '10',
      ispublic: '1',
      sort: '7',
      topic: 'Access Issue',
      notes: 'Report an inability access a physical or virtual asset',
      created: '2026-11-22 13:10:28',
      updated: '2026-11-22 13:10:28',
    });
  });

  test('every active topic of the seed answers; a private one with ispublic "0"', async () => {
    for (const id of [1, 2, 10, 11, 12, 15]) {
      const reply = await call(server.url, {
        headers: { apikey: database.writeKey.key },
        body: topicBody(id),
      });
      assert.equal(reply.status, 200, `topic ${id}: ${reply.text}`);
    }
    const internal = await call(server.url, {
      headers: { apikey: database.writeKey.key },
      body: topicBody(12),
    });
    assert.equal(topicOf(internal).ispublic, '0');
    const unicode = await call(server.url, {
      headers: { apikey: database.writeKey.key },
      body: topicBody(15),
    });
    assert.equal(topicOf(unicode).topic, 'Café Ünïcode ✓');
    assert.equal(topicOf(unicode).notes, 'Notes with <b>html</b> &amp; ampersand');
  });

  test('disabled (flags 0) and archived (flags 4) topics are not found, like a missing one', async () => {
    for (const id of [13, 14, 999]) {
      const reply = await call(server.url, {
        headers: { apikey: database.writeKey.key },
        body: topicBody(id),
      });
      assert.equal(reply.status, 204, `topic ${id}`);
      assert.equal(reply.headers['x-error-code'], 'not_found');
    }
  });

  test('/readyz is ready on a complete osTicket database', async () => {
    const reply = await call(`${server.origin}/readyz`, { method: 'GET' });
    assert.equal(reply.status, 200, reply.text);
  });

  test('keys come from api_key: inactive → 401, other address → 403, no can_create_tickets → no write', async () => {
    const inactive = await call(server.url, {
      headers: { apikey: database.inactiveKey.key },
      body: topicBody(1),
    });
    assert.equal(inactive.status, 401);
    assert.equal(inactive.body?.code, 'invalid_api_key');
    const elsewhere = await call(server.url, {
      headers: { apikey: database.elsewhereKey.key },
      body: topicBody(1),
    });
    assert.equal(elsewhere.status, 403);
    assert.equal(elsewhere.body?.code, 'ip_not_allowed');
    const readOnlyRead = await call(server.url, {
      headers: { apikey: database.readKey.key },
      body: topicBody(1),
    });
    assert.equal(readOnlyRead.status, 200);
    const readOnlyWrite = await call(server.url, {
      method: 'POST',
      headers: { apikey: database.readKey.key },
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

  test('an osTicket key is accepted in lower case, as osTicket accepts it', async () => {
    const lower = await call(server.url, {
      headers: { apikey: database.writeKey.key.toLowerCase() },
      body: topicBody(1),
    });
    assert.equal(lower.status, 200, lower.text);
    // A key an admin stored in lower case works in either case too.
    const stored = 'abcdef0123456789abcdef0123456789';
    await database.query(
      `INSERT INTO \`${database.prefix}api_key\` (isactive, ipaddr, apikey, can_create_tickets, notes, updated, created)
       VALUES (1, '127.0.0.1', ?, 0, 'lower', NOW(), NOW())`,
      [stored],
    );
    for (const presented of [stored, stored.toUpperCase()]) {
      const reply = await call(server.url, { headers: { apikey: presented }, body: topicBody(1) });
      assert.equal(reply.status, 200, reply.text);
    }
  });

  test('an address taken in another case is a 409 naming the holder, and nothing is written', async () => {
    const email = `dup.${Date.now()}@example.com`;
    const first = await call(server.url, {
      method: 'POST',
      headers: { apikey: database.writeKey.key },
      body: userBody({ email }),
    });
    assert.equal(first.status, 200, first.text);
    const count = async () =>
      (
        await database.query<{ n: number }>(
          `SELECT (SELECT COUNT(*) FROM \`${database.prefix}user\`) + (SELECT COUNT(*) FROM \`${database.prefix}form_entry\`) + (SELECT COUNT(*) FROM \`${database.prefix}_search\`) AS n`,
        )
      )[0]?.n;
    const before = await count();
    const second = await call(server.url, {
      method: 'POST',
      headers: { apikey: database.writeKey.key },
      body: userBody({ email: email.toUpperCase() }),
    });
    assert.equal(second.status, 409);
    assert.equal(second.body?.existing_id, first.body?.data);
    assert.equal(await count(), before);
  });

  test('50 simultaneous adds of one address in mixed case give one user and one set of rows', async () => {
    const email = `race.${Date.now()}@example.com`;
    const replies = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        call(server.url, {
          method: 'POST',
          headers: { apikey: database.writeKey.key },
          body: userBody({ email: i % 2 ? email.toUpperCase() : email }),
        }),
      ),
    );
    assert.equal(replies.filter((r) => r.status === 200).length, 1);
    assert.equal(replies.filter((r) => r.status === 409).length, 49);
    const p = database.prefix;
    const rows = await database.query<{ user_id: number }>(
      `SELECT user_id FROM \`${p}user_email\` WHERE address = ?`,
      [email],
    );
    assert.equal(rows.length, 1);
    const orphans = await database.query(
      `SELECT u.id FROM \`${p}user\` u LEFT JOIN \`${p}user_email\` e ON e.user_id = u.id WHERE e.id IS NULL
       UNION ALL SELECT f.id FROM \`${p}form_entry\` f LEFT JOIN \`${p}user\` u ON u.id = f.object_id WHERE u.id IS NULL
       UNION ALL SELECT s.object_id FROM \`${p}_search\` s LEFT JOIN \`${p}user\` u ON u.id = s.object_id WHERE u.id IS NULL`,
    );
    assert.deepEqual(orphans, [], 'the losers of the race left no row behind');
  });

  test("osTicket's tables are never altered; deskgate's own sit beside them, in utf8mb4", async () => {
    assert.deepEqual(await showCreateTables(database), tablesBefore);
    const own = await database.query<{ name: string; collation: string }>(
      "SELECT table_name AS name, table_collation AS collation FROM information_schema.tables WHERE table_schema = DATABASE() AND table_name LIKE 'deskgate%' ORDER BY 1",
    );
    assert.deepEqual(
      own.map((r) => r.name),
      [
        'deskgate_audit_log',
        'deskgate_events',
        'deskgate_event_positions',
        'deskgate_idempotency_keys',
        'deskgate_key_grants',
        'deskgate_migration',
        'deskgate_migration_lock',
        'deskgate_webhooks',
        'deskgate_webhook_deliveries',
        'deskgate_webhook_dispatch',
      ],
    );
    for (const table of own.filter((t) => !t.name.startsWith('deskgate_migration')))
      assert.match(table.collation, /^utf8mb4_/, `${table.name} in an utf8mb3 database`);
  });

  test('the CLI lists the real topics, reads users, and leaves topics and keys to osTicket', async () => {
    const env = osticketEnv(database);
    // Independent calls, none of which changes anything: run side by side.
    const [list, table, add, keys, keyList] = await Promise.all([
      runCli(['topics', 'list', '--json'], env),
      runCli(['topics', 'list'], env),
      runCli(['topics', 'add', '--topic', 'New'], env),
      runCli(['keys', 'create', '--name', 'x'], env),
      runCli(['keys', 'list', '--json'], env),
    ]);
    assert.equal(list.code, 0, list.stderr);
    assert.deepEqual(
      (JSON.parse(list.stdout) as { id: number }[]).map((t) => t.id),
      [1, 2, 10, 11, 12, 13, 14, 15],
    );
    assert.equal(table.code, 0, table.stderr);
    assert.match(table.stdout, /Café Ünïcode ✓/);
    assert.equal(add.code, 1);
    assert.match(add.stderr, /osTicket/);
    assert.equal(keys.code, 1);
    assert.match(keys.stderr, /osTicket/);
    assert.equal(keyList.code, 0, keyList.stderr);
    assert.ok(!keyList.stdout.includes(database.writeKey.key), 'keys list never shows a key');
  });
});

describe('osTicket mode with DESKGATE_INACTIVE_TOPICS=true', { skip }, () => {
  let database: OsticketDatabase;

  before(async () => {
    database = await createOsticketDatabase();
  });
  const server = useTestServer(() => ({
    database: database.url,
    env: { ...osticketEnv(database), DESKGATE_INACTIVE_TOPICS: 'true' },
    ownKey: false,
  }));
  after(async () => {
    await database?.drop();
  });

  test('disabled and archived topics are answered too', async () => {
    for (const [id, name] of [
      [13, 'Old Disabled Topic'],
      [14, 'Archived Topic'],
    ] as const) {
      const reply = await call(server.url, {
        headers: { apikey: database.writeKey.key },
        body: topicBody(id),
      });
      assert.equal(reply.status, 200, reply.text);
      assert.equal(topicOf(reply).topic, name);
    }
    const disabled = await call(server.url, {
      headers: { apikey: database.writeKey.key },
      body: topicBody(13),
    });
    assert.equal(topicOf(disabled).notes, '', 'NULL notes → ""');
  });
});

describe('osTicket mode without the contact table yet and with another prefix', { skip }, () => {
  let database: OsticketDatabase;

  before(async () => {
    database = await createOsticketDatabase({ prefix: 'helpdesk_', contactTable: false });
  });
  const server = useTestServer(() => ({
    database: database.url,
    env: osticketEnv(database),
    ownKey: false,
  }));
  after(async () => {
    await database?.drop();
  });

  test('user creation writes every row but the __cdata cache, which osTicket builds later', async () => {
    const reply = await call(server.url, {
      method: 'POST',
      headers: { apikey: database.writeKey.key },
      body: userBody({ phone: 5551234 }),
    });
    assert.equal(reply.status, 200, reply.text);
    const id = Number(reply.body?.data);
    const values = await database.query<{ value: string | null }>(
      `SELECT v.value FROM helpdesk_form_entry e JOIN helpdesk_form_entry_values v ON v.entry_id = e.id
       JOIN helpdesk_form_field f ON f.id = v.field_id WHERE e.object_type = 'U' AND e.object_id = ? AND f.name = 'phone'`,
      [id],
    );
    assert.deepEqual(values, [{ value: '5551234' }]);
    const search = await database.query('SELECT * FROM helpdesk__search WHERE object_id = ?', [id]);
    assert.equal(search.length, 1);
  });

  test('a wrong prefix stops the start with one line naming the missing tables', async () => {
    const result = await runCli(['serve'], {
      DESKGATE_DATABASE_URL: database.url,
      DESKGATE_SCHEMA: 'osticket',
      PORT: '0',
    });
    assert.equal(result.code, 1);
    assert.match(result.stderr, /ost_help_topic/);
    assert.equal(result.stderr.trim().split('\n').length, 1, result.stderr);
  });
});
