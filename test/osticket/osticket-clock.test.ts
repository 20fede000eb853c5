import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createConnection } from 'mysql2/promise';
import { call, topicBody, userBody } from '../helpers/http.ts';
import {
  PRIVATE_MARIADB_SKIP,
  type PrivateMariadb,
  startPrivateMariadb,
} from '../helpers/private-mariadb.ts';
import { useTestServer } from '../helpers/test-server.ts';
import {
  createOsticketDatabase,
  OSTICKET_SKIP,
  type OsticketDatabase,
  osticketEnv,
} from './osticket-database.ts';

/**
 * Three clocks that differ: UTC, the server's global time_zone (+05:30, a half hour so no
 * whole-hour slip hides) and its system zone (Tokyo, +09:00, no daylight saving). osTicket puts
 * its sessions in SYSTEM (include/mysqli.php, db_connect), so that is the clock its rows carry.
 */
const GLOBAL_ZONE = '+05:30';
const SYSTEM_ZONE = 'Asia/Tokyo';
const SYSTEM_OFFSET_MS = 9 * 60 * 60_000;
const GLOBAL_OFFSET_MS = (5 * 60 + 30) * 60_000;

function parse(text: unknown): number {
  return Date.parse(`${String(text).replace(' ', 'T')}Z`);
}

describe("osTicket mode writes times with the clock osTicket writes with (the server's SYSTEM zone)", {
  skip: OSTICKET_SKIP || PRIVATE_MARIADB_SKIP,
}, () => {
  let mariadb: PrivateMariadb;
  let database: OsticketDatabase;

  before(async () => {
    // A private server: the shared one's global time zone must not change under other suites.
    mariadb = await startPrivateMariadb([`--default-time-zone=${GLOBAL_ZONE}`], SYSTEM_ZONE);
    database = await createOsticketDatabase({ adminUrl: mariadb.adminUrl });
  });
  const server = useTestServer(() => ({
    database: database.url,
    env: { ...osticketEnv(database), DESKGATE_OSTICKET_SYSLOG: 'true' },
    ownKey: false,
  }));
  after(async () => {
    await database?.drop();
    await mariadb?.stop();
  });

  test('created/updated/registered are NOW() in the SYSTEM zone, as osTicket writes them', async () => {
    // What osTicket itself would write now: NOW() on a session it set to SYSTEM.
    const probe = await createConnection({ uri: database.url, dateStrings: true });
    await probe.query("SET time_zone = 'SYSTEM'");
    const [[clock]] = (await probe.query(
      'SELECT NOW() AS now, @@global.time_zone AS global_zone',
    )) as unknown as [[{ now: string; global_zone: string }]];
    await probe.end();
    assert.equal(clock.global_zone, GLOBAL_ZONE);
    const utcNow = Date.now();
    assert.ok(
      Math.abs(parse(clock.now) - (utcNow + SYSTEM_OFFSET_MS)) < 60_000,
      'the system zone is in effect',
    );
    assert.notEqual(SYSTEM_OFFSET_MS, GLOBAL_OFFSET_MS, 'the global clock would be told apart');

    const reply = await call(server.url, {
      method: 'POST',
      headers: { apikey: database.writeKey.key },
      body: userBody({ email: 'clock@example.com' }),
    });
    assert.equal(reply.status, 200, reply.text);
    const id = Number(reply.body?.data);
    const p = database.prefix;
    await database.query("SET time_zone = 'SYSTEM'");
    const [row] = await database.query<Record<string, string>>(
      `SELECT u.created, u.updated, e.created AS entry_created, a.registered
         FROM \`${p}user\` u JOIN \`${p}form_entry\` e ON e.object_type = 'U' AND e.object_id = u.id
         JOIN \`${p}user_account\` a ON a.user_id = u.id WHERE u.id = ?`,
      [id],
    );
    // database.query's connection is in the SYSTEM zone too (the server's default session zone
    // is the global one, so set it), so the TIMESTAMP reads back as osTicket would show it.
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
