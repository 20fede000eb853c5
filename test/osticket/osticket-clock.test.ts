import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createConnection } from 'mysql2/promise';
import { call, topicBody, userBody } from '../helpers/http.ts';
import {
  PRIVATE_MARIADB_SKIP,
  type PrivateMariadb,
  startPrivateMariadb,
} from '../helpers/private-mariadb.ts';
import { type StartedServer, startServer } from '../helpers/server.ts';
import {
  createOsticketDatabase,
  OSTICKET_SKIP,
  type OsticketDatabase,
  osticketEnv,
} from './osticket-database.ts';

/** Far from UTC and from any machine's zone, with a half hour so no whole-hour slip hides. */
const SERVER_ZONE = '+05:30';
const OFFSET_MS = (5 * 60 + 30) * 60_000;

function parse(text: unknown): number {
  return Date.parse(`${String(text).replace(' ', 'T')}Z`);
}

describe("osTicket mode writes times with the database server's own clock (global time_zone +05:30)", {
  skip: OSTICKET_SKIP || PRIVATE_MARIADB_SKIP,
}, () => {
  let mariadb: PrivateMariadb;
  let database: OsticketDatabase;
  let server: StartedServer;

  before(async () => {
    // A private server: the shared one's global time zone must not change under other suites.
    mariadb = await startPrivateMariadb([`--default-time-zone=${SERVER_ZONE}`]);
    database = await createOsticketDatabase({ adminUrl: mariadb.adminUrl });
    server = await startServer({
      databaseUrl: database.url,
      env: { ...osticketEnv(database), DESKGATE_OSTICKET_SYSLOG: 'true' },
    });
  });
  after(async () => {
    await server?.stop();
    await database?.drop();
    await mariadb?.stop();
  });

  test('created/updated/registered are NOW() in the server zone, as osTicket writes them', async () => {
    // What osTicket itself would write now: NOW() on a connection in the server's zone.
    const probe = await createConnection({ uri: database.url, dateStrings: true });
    const [[clock]] = (await probe.query(
      'SELECT NOW() AS now, @@session.time_zone AS zone',
    )) as unknown as [[{ now: string; zone: string }]];
    await probe.end();
    assert.equal(clock.zone, SERVER_ZONE);
    const utcNow = Date.now();
    assert.ok(Math.abs(parse(clock.now) - (utcNow + OFFSET_MS)) < 60_000, 'the zone is in effect');

    const reply = await call(server.url, {
      method: 'POST',
      headers: { apikey: database.writeKey.key },
      body: userBody({ email: 'clock@example.com' }),
    });
    assert.equal(reply.status, 200, reply.text);
    const id = Number(reply.body?.data);
    const p = database.prefix;
    const [row] = await database.query<Record<string, string>>(
      `SELECT u.created, u.updated, e.created AS entry_created, a.registered
         FROM \`${p}user\` u JOIN \`${p}form_entry\` e ON e.object_type = 'U' AND e.object_id = u.id
         JOIN \`${p}user_account\` a ON a.user_id = u.id WHERE u.id = ?`,
      [id],
    );
    // The test's connection is in the server zone too, so the TIMESTAMP reads back as local.
    for (const [column, value] of Object.entries(row ?? {})) {
      const off = parse(value) - parse(clock.now);
      assert.ok(Math.abs(off) < 60_000, `${column} ${value} vs server NOW() ${clock.now}`);
    }
    const [log] = await database.query<{ created: string }>(
      `SELECT created FROM \`${p}syslog\` ORDER BY log_id DESC LIMIT 1`,
    );
    assert.ok(Math.abs(parse(log?.created) - parse(clock.now)) < 60_000, 'syslog too');
  });

  test("topic times come back exactly as stored, not shifted by the server's offset", async () => {
    const reply = await call(server.url, {
      headers: { apikey: database.writeKey.key },
      body: topicBody(1),
    });
    assert.equal(reply.status, 200, reply.text);
    const { topic } = (reply.body?.data ?? {}) as { topic: Record<string, string> };
    assert.equal(topic.created, '2026-11-22 13:10:28');
    assert.equal(topic.updated, '2026-11-22 13:10:28');
  });
});
