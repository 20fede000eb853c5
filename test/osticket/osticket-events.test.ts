import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import type { FeedEvent } from '../../src/data/events/event.ts';
import { formatTimestamp } from '../../src/data/time.ts';
import { useTestServer } from '../helpers/test-server.ts';
import {
  createOsticketDatabase,
  insertOpenedTicket,
  OSTICKET_SKIP,
  type OsticketDatabase,
  osticketEnv,
} from './osticket-database.ts';

const skip = OSTICKET_SKIP;

interface Page {
  events: FeedEvent[];
  next: string;
  end_of_stream: boolean;
}

/**
 * The reader of osTicket's history on osTicket's own schema, rows written as osTicket writes
 * them (test/osticket-real/events-feed.test.ts has osTicket's own code write them): two deskgate
 * instances, one reader, every row once.
 */
describe("the feed from osTicket's own history", { skip }, () => {
  let database: OsticketDatabase;
  before(async () => {
    database = await createOsticketDatabase();
    // The installer's event names (the seed file has none).
    for (const name of ['created', 'closed', 'reopened', 'assigned', 'edited', 'deleted'])
      await database.query('INSERT IGNORE INTO ost_event (name, description) VALUES (?, ?)', [
        name,
        name,
      ]);
  });
  const first = useTestServer(() => ({
    database: database.url,
    env: osticketEnv(database),
    ownKey: false,
  }));
  const second = useTestServer(() => ({
    database: database.url,
    env: osticketEnv(database),
    ownKey: false,
  }));
  after(async () => {
    await database?.drop();
  });

  async function since(parameters: Record<string, unknown>, server = first): Promise<Page> {
    const reply = await server.request(
      { query: 'events', condition: 'since', parameters },
      { key: database.writeKey.key },
    );
    assert.equal(reply.status, 200, reply.text);
    return reply.body?.data as unknown as Page;
  }

  async function waitFor(cursor: string, count: number): Promise<FeedEvent[]> {
    const events: FeedEvent[] = [];
    let next = cursor;
    for (let tries = 0; tries < 120 && events.length < count; tries++) {
      const page = await since({ after: next, limit: 1000 });
      events.push(...page.events);
      next = page.next;
      if (page.end_of_stream && events.length < count) await sleep(500);
    }
    return events;
  }

  async function readerStarted(): Promise<void> {
    for (let tries = 0; tries < 60; tries++) {
      const rows = await database.query('SELECT source FROM deskgate_event_positions');
      if (rows.length === 3) return;
      await sleep(500);
    }
    assert.fail('the reader never stored its position');
  }

  async function openTicket(): Promise<{ ticketId: number; threadId: number; number: string }> {
    const { ticketId, threadId, number } = await insertOpenedTicket(database);
    await database.insert(
      `INSERT INTO ost_thread_entry (pid, thread_id, staff_id, user_id, type, poster, body, format, created, updated)
       VALUES (0, ?, 0, 1, 'M', 'Tess', 'Help', 'text', NOW(), NOW())`,
      [threadId],
    );
    return { ticketId, threadId, number };
  }

  test('what osTicket logs reaches the feed once, read by one of two instances', async () => {
    await readerStarted();
    const cursor = (await since({ start_time: '2000-01-01' })).next;
    const { ticketId, threadId, number } = await openTicket();
    // deskgate's own reply through osTicket: its audit entry comes with osTicket's row.
    const entryId = await database.insert(
      `INSERT INTO ost_thread_entry (pid, thread_id, staff_id, user_id, type, poster, body, format, created, updated)
       VALUES (0, ?, 1, 0, 'R', 'Alex Agent', 'On it', 'text', NOW(), NOW())`,
      [threadId],
    );
    await database.insert(
      `INSERT INTO deskgate_audit_log (at, api_key_id, client_ip, operation, target_id)
       VALUES (?, ?, '127.0.0.1', 'ticket/reply', ?)`,
      [formatTimestamp(new Date()), database.writeKey.id, String(entryId)],
    );
    const events = await waitFor(cursor, 3);
    assert.deepEqual(
      events.map((event) => [event.type, event.ticket?.id, event.ticket?.number]),
      [
        ['ticket.created', ticketId, number],
        ['ticket.message.created', ticketId, number],
        ['ticket.reply.created', ticketId, number],
      ],
    );
    assert.deepEqual(events[0]?.actor, { type: 'user', id: 1, name: 'Tess' });
    assert.deepEqual(events[2]?.actor, {
      type: 'staff',
      id: 1,
      name: 'Alex Agent',
      api_key_id: database.writeKey.id,
    });
    assert.equal(new Set(events.map((event) => event.id)).size, events.length);
    // The second instance serves the same feed (it did not read it a second time).
    const fromSecond = await since({ after: cursor, limit: 1000 }, second);
    assert.deepEqual(
      fromSecond.events.map((event) => event.id),
      events.map((event) => event.id),
    );
  });

  test('a deletion, logged after osTicket removed the ticket and its thread, still names it', async () => {
    const { ticketId, threadId, number } = await openTicket();
    const cursor = (await since({ start_time: '2000-01-01', limit: 1000 })).next;
    await waitFor(cursor, 2);
    const cursorAfter = (await since({ start_time: '2000-01-01', limit: 1000 })).next;
    // Ticket::delete(): the ticket, then the thread (its events' thread_id set to 0), then `deleted`.
    await database.query('DELETE FROM ost_ticket WHERE ticket_id = ?', [ticketId]);
    await database.query('DELETE FROM ost_thread WHERE id = ?', [threadId]);
    await database.query('UPDATE ost_thread_event SET thread_id = 0 WHERE thread_id = ?', [
      threadId,
    ]);
    await database.insert(
      `INSERT INTO ost_thread_event (thread_id, thread_type, event_id, staff_id, team_id, dept_id, topic_id, username, uid, uid_type, timestamp)
       VALUES (?, 'T', (SELECT id FROM ost_event WHERE name = 'deleted'), 1, 0, 1, 0, 'admin', 1, 'S', NOW())`,
      [threadId],
    );
    const events = await waitFor(cursorAfter, 1);
    assert.deepEqual(
      events.map((event) => [event.type, event.ticket]),
      [['ticket.deleted', { id: ticketId, number }]],
    );
  });
});

/**
 * GET_LOCK names are the whole server's: the reader's lock names its database, so two osTicket
 * installations on one MariaDB server each have their reader (one lock name held them both off).
 */
describe('two osTicket installations on one database server', { skip }, () => {
  let databases: OsticketDatabase[] = [];
  before(async () => {
    databases = [await createOsticketDatabase(), await createOsticketDatabase()];
  });
  const servers = [0, 1].map((index) =>
    useTestServer(() => ({
      database: (databases[index] as OsticketDatabase).url,
      env: osticketEnv(databases[index] as OsticketDatabase),
      ownKey: false,
    })),
  );
  after(async () => {
    for (const database of databases) await database.drop();
  });

  test('each has its own reader: both store their position', async () => {
    assert.equal(servers.length, 2);
    for (const database of databases) {
      let rows: unknown[] = [];
      for (let tries = 0; tries < 60 && rows.length === 0; tries++) {
        rows = await database.query('SELECT source FROM deskgate_event_positions');
        if (rows.length === 0) await sleep(500);
      }
      assert.notEqual(rows.length, 0, 'a reader never started');
    }
  });
});
