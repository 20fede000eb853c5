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

interface SyslogRow {
  log_type: string;
  title: string;
  log: string;
  logger: string;
  ip_address: string;
  created: string;
  updated: string;
}

describe('DESKGATE_OSTICKET_SYSLOG=true', { skip }, () => {
  let database: OsticketDatabase;

  const syslog = () =>
    database.query<SyslogRow>(`SELECT * FROM \`${database.prefix}syslog\` ORDER BY log_id`);

  before(async () => {
    database = await createOsticketDatabase();
  });
  const server = useTestServer(() => ({
    database: database.url,
    env: { ...osticketEnv(database), DESKGATE_OSTICKET_SYSLOG: 'true' },
    ownKey: false,
  }));
  after(async () => {
    await database?.drop();
  });

  test('one Debug row per successful call, none for a failed one, as System Logs shows them', async () => {
    const topic = await call(server.url, {
      headers: { apikey: database.writeKey.key },
      body: topicBody(1),
    });
    assert.equal(topic.status, 200);
    const missing = await call(server.url, {
      headers: { apikey: database.writeKey.key },
      body: topicBody(999),
    });
    assert.equal(missing.status, 204);
    const bad = await call(server.url, {
      method: 'POST',
      headers: { apikey: database.writeKey.key },
      body: userBody({ name: '<b>' }),
    });
    assert.equal(bad.status, 400);
    const added = await call(server.url, {
      method: 'POST',
      headers: { apikey: database.writeKey.key },
      body: userBody({ email: 'logged@example.com' }),
    });
    assert.equal(added.status, 200, added.text);
    const rows = await syslog();
    assert.equal(rows.length, 2, JSON.stringify(rows));
    const [read, write] = rows;
    assert.equal(read?.log_type, 'Debug');
    assert.equal(read?.title, 'API call: topics/specific');
    assert.equal(read?.ip_address, '127.0.0.1');
    assert.equal(read?.logger, 'deskgate');
    assert.match(
      String(read?.log),
      new RegExp(`API key ${database.writeKey.id} from 127\\.0\\.0\\.1`),
    );
    assert.equal(write?.title, 'API call: user/add');
    assert.match(String(write?.log), new RegExp(`created user ${added.body?.data}$`));
    assert.match(String(write?.created), /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
    assert.ok(!JSON.stringify(rows).includes(database.writeKey.key), 'never the key');
  });

  test('the syslog row is part of the user transaction: no syslog insert, no user', async () => {
    await database.query(
      `RENAME TABLE \`${database.prefix}syslog\` TO \`${database.prefix}syslog_away\``,
    );
    try {
      const reply = await call(server.url, {
        method: 'POST',
        headers: { apikey: database.writeKey.key },
        body: userBody({ email: 'unlogged@example.com' }),
      });
      assert.equal(reply.status, 500);
      const users = await database.query(
        `SELECT id FROM \`${database.prefix}user_email\` WHERE address = 'unlogged@example.com'`,
      );
      assert.deepEqual(users, []);
    } finally {
      await database.query(
        `RENAME TABLE \`${database.prefix}syslog_away\` TO \`${database.prefix}syslog\``,
      );
    }
  });
});

describe('readiness and start in osTicket mode follow the tables deskgate needs', { skip }, () => {
  let database: OsticketDatabase;
  const away = async (table: string, back = false) => {
    const [from, to] = back ? [`${table}_away`, table] : [table, `${table}_away`];
    await database.query(
      `RENAME TABLE \`${database.prefix}${from}\` TO \`${database.prefix}${to}\``,
    );
  };

  before(async () => {
    database = await createOsticketDatabase();
  });
  const server = useTestServer(() => ({
    database: database.url,
    env: osticketEnv(database),
    ownKey: false,
  }));
  after(async () => {
    await database?.drop();
  });

  test('/readyz answers 503 while a table deskgate reads cannot be read, 200 again after', async () => {
    assert.equal((await call(`${server.origin}/readyz`, { method: 'GET' })).status, 200);
    for (const table of ['help_topic', 'form_field', 'user_account']) {
      await away(table);
      try {
        const reply = await call(`${server.origin}/readyz`, { method: 'GET' });
        assert.equal(reply.status, 503, `${table}: ${reply.text}`);
        assert.equal(reply.body?.code, 'database_unavailable');
      } finally {
        await away(table, true);
      }
    }
    assert.equal((await call(`${server.origin}/readyz`, { method: 'GET' })).status, 200);
  });

  test('a help_topic without the columns deskgate reads stops the start with one line', async () => {
    await database.query(
      `ALTER TABLE \`${database.prefix}help_topic\` CHANGE flags topic_flags int(10) unsigned DEFAULT 0`,
    );
    try {
      const result = await runCli(['serve'], { ...osticketEnv(database), PORT: '0' });
      assert.equal(result.code, 1);
      assert.equal(result.stderr.trim().split('\n').length, 1, result.stderr);
      assert.match(result.stderr, /^deskgate: database error: .*flags/);
      const list = await runCli(['topics', 'list'], osticketEnv(database));
      assert.equal(list.code, 1);
      assert.equal(list.stderr.trim().split('\n').length, 1, list.stderr);
    } finally {
      await database.query(
        `ALTER TABLE \`${database.prefix}help_topic\` CHANGE topic_flags flags int(10) unsigned DEFAULT 0`,
      );
    }
  });
});
