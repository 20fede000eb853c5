import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { describeEachDatabaseKind } from '../../../test/helpers/each-database.ts';
import { useKindServer } from '../../../test/helpers/kind-server.ts';
import { startTestServer } from '../../../test/helpers/test-server.ts';
import { addAgent, addUser, ticketAddBody } from '../../../test/helpers/tickets.ts';
import { tablesOf } from '../../data/entity.ts';
import type { FeedEvent, NewEvent } from '../../data/events/event.ts';
import { type EventTables, insertEvents } from '../../data/events/event-rows.ts';
import { appendEvents } from '../../data/events/events.ts';
import { openDatabase } from '../../data/open-database.ts';
import type { DialectName } from '../../data/store.ts';
import { writes } from '../../data/writes/writes.ts';
import { encodeCursor } from './event-cursor.ts';

interface Page {
  events: FeedEvent[];
  next: string;
  end_of_stream: boolean;
}

const probe = (type: NewEvent['type'] = 'user.created', userId = 999_999): NewEvent => ({
  type,
  occurredAt: '2026-11-27 12:00:00',
  user: { id: userId },
  actor: { type: 'system', id: null, name: 'test' },
});

describeEachDatabaseKind('events/since', (database) => {
  /*
   * The events deskgate's own writes append: deskgate's schema only. In osTicket mode deskgate
   * writes tickets through osTicket, and the feed is read from osTicket's own history
   * (test/osticket/osticket-events.test.ts, test/osticket-real/events-feed.test.ts); what the
   * feed answers whatever wrote it (its cursors, its end, its scopes) is checked on every kind.
   */
  const own = database.kind !== 'osticket';
  const dialect: DialectName = database.kind === 'osticket' ? 'mysql' : database.kind;
  // A long settle time: a gap is waited for throughout each test (none depends on it passing).
  const server = useKindServer(database, { DESKGATE_EVENTS_SETTLE_MS: '600000' });
  let userId: number;
  let agentId: number;
  let keyId: number;
  let key: string;
  /** A key with neither tickets:read nor users:read: osTicket's key without "Can Create Tickets". */
  let neither: string;
  before(async () => {
    if (database.osticket) {
      ({ id: keyId, key } = database.osticket.writeKey);
      neither = database.osticket.readKey.key;
      return;
    }
    userId = await addUser(server.store);
    agentId = await addAgent(server.store, 'Alex Agent');
    ({ id: keyId, key } = await server.createKey({
      scopes: ['tickets:read', 'tickets:write', 'users:read'],
      notes: true,
      agents: 'any',
    }));
    ({ key: neither } = await server.createKey({ scopes: ['read', 'write'] }));
  });

  async function since(
    parameters: Record<string, unknown>,
    options: { key?: string; status?: number } = {},
  ) {
    const reply = await server.request(
      { query: 'events', condition: 'since', parameters },
      options.key === undefined ? { key } : { key: options.key },
    );
    assert.equal(reply.status, options.status ?? 200, reply.text);
    return reply;
  }
  const page = async (parameters: Record<string, unknown>, otherKey?: string) =>
    (await since(parameters, otherKey === undefined ? {} : { key: otherKey })).body
      ?.data as unknown as Page;

  /** Every event from `cursor` on, page by page. */
  async function readAll(first: Record<string, unknown>, limit: number, otherKey?: string) {
    const seen: FeedEvent[] = [];
    let parameters: Record<string, unknown> = { ...first, limit };
    for (let pages = 0; pages < 1000; pages++) {
      const answer = await page(parameters, otherKey);
      assert.ok(answer.events.length <= limit);
      seen.push(...answer.events);
      if (answer.end_of_stream) return { seen, next: answer.next };
      const { start_time: _, ...rest } = parameters;
      parameters = { ...rest, after: answer.next };
    }
    throw new Error('the feed never ended');
  }

  async function current(): Promise<string> {
    return (await readAll({ start_time: '2000-01-01' }, 1000)).next;
  }

  const write = (condition: string, parameters: Record<string, unknown>) =>
    server.request({ query: 'ticket', condition, parameters }, { method: 'POST', key });

  if (own) {
    test("a ticket's life in the feed: created, message, reply, note, status, each naming its key", async () => {
      const cursor = await current();
      const added = await server.request(ticketAddBody(userId), { method: 'POST', key });
      assert.equal(added.status, 200, added.text);
      const ticketId = Number(added.body?.data);
      assert.equal(
        (await write('reply', { ticket_id: ticketId, body: 'On it.', staff_id: agentId })).status,
        200,
      );
      const closed = await write('close', {
        ticket_id: ticketId,
        body: 'Fixed.',
        staff_id: agentId,
        status_id: 3,
      });
      assert.equal(closed.status, 200, closed.text);
      const { seen } = await readAll({ after: cursor }, 100);
      assert.deepEqual(
        seen.map((event) => event.type),
        [
          'ticket.created',
          'ticket.message.created',
          'ticket.reply.created',
          'ticket.note.created',
          'ticket.status_changed',
        ],
      );
      for (const event of seen) {
        assert.equal(event.ticket?.id, ticketId);
        assert.match(event.ticket?.number ?? '', /^\d+$/);
        assert.match(event.id, /^evt_[0-9a-f]{32}$/);
        assert.match(event.occurred_at, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
        assert.equal(event.actor.api_key_id, keyId, JSON.stringify(event));
        assert.ok(!JSON.stringify(event).includes('On it.'), 'no message body');
      }
      assert.deepEqual(seen[0]?.actor, { type: 'api', id: keyId, name: null, api_key_id: keyId });
      assert.deepEqual(seen[1]?.actor, {
        type: 'user',
        id: userId,
        name: 'Tess Ticket',
        api_key_id: keyId,
      });
      assert.deepEqual(seen[2]?.actor, {
        type: 'staff',
        id: agentId,
        name: 'Alex Agent',
        api_key_id: keyId,
      });
      assert.deepEqual(seen[4]?.data.status, { id: 3, name: 'Closed' });
      const seqs = seen.map((event) => event.seq);
      assert.deepEqual(
        seqs,
        [...seqs].sort((a, b) => a - b),
      );
    });

    test('the ticket changes each have their event, with the columns before and after', async () => {
      const added = await server.request(ticketAddBody(userId), { method: 'POST', key });
      const ticketId = Number(added.body?.data);
      const other = await addAgent(server.store, 'Olga Other');
      const cursor = await current();
      for (const [condition, parameters] of [
        ['note', { title: 'Called', body: 'Internal words' }],
        ['status', { status_id: 3 }],
        ['status', { status_id: 1 }],
        ['assign', { agent_id: other }],
        ['update', { priority_id: 4 }],
      ] as const) {
        const reply = await write(condition, {
          ticket_id: ticketId,
          staff_id: agentId,
          ...parameters,
        });
        assert.equal(reply.status, 200, `${condition} ${reply.text}`);
      }
      const { seen } = await readAll({ after: cursor }, 100);
      assert.deepEqual(
        seen.map((event) => event.type),
        [
          'ticket.note.created',
          'ticket.status_changed',
          'ticket.status_changed',
          'ticket.assigned',
          'ticket.updated',
        ],
      );
      for (const event of seen) {
        assert.equal(event.ticket?.id, ticketId);
        assert.deepEqual(event.actor, {
          type: 'staff',
          id: agentId,
          name: 'Alex Agent',
          api_key_id: keyId,
        });
      }
      assert.deepEqual(seen[1]?.changes.status_id, [1, 3]);
      assert.deepEqual(seen[2]?.changes.status_id, [3, 1]);
      assert.deepEqual(seen[3]?.data.staff, { id: other, name: 'Olga Other' });
      assert.ok(!JSON.stringify(seen).includes('Internal words'), 'no body');
    });

    test('paging: every limit reads the same events, none twice, none missed', async () => {
      const start = await current();
      for (let i = 0; i < 4; i++) {
        const added = await server.request(ticketAddBody(userId), { method: 'POST', key });
        assert.equal(added.status, 200, added.text);
      }
      const whole = (await readAll({ after: start }, 1000)).seen.map((event) => event.id);
      assert.equal(whole.length, 8);
      for (const limit of [1, 3, 7]) {
        const paged = (await readAll({ after: start }, limit)).seen.map((event) => event.id);
        assert.deepEqual(paged, whole, `limit ${limit}`);
      }
      const tickets = (await readAll({ after: start, types: ['ticket.created'] }, 2)).seen;
      assert.equal(tickets.length, 4);
      const one = tickets[2]?.ticket?.id;
      const ofOne = (await readAll({ after: start, ticket_id: one }, 1)).seen;
      assert.deepEqual(
        ofOne.map((event) => [event.type, event.ticket?.id]),
        [
          ['ticket.created', one],
          ['ticket.message.created', one],
        ],
      );
    });
  }

  test('next is always present; at the end it stays where it is', async () => {
    const first = await page({ start_time: '2000-01-01T00:00:00Z', limit: 1000 });
    assert.equal(first.end_of_stream, true);
    const again = await page({ after: first.next });
    assert.deepEqual(again.events, []);
    assert.equal(again.end_of_stream, true);
    assert.equal(typeof again.next, 'string');
  });

  test('a key with neither tickets:read nor users:read → 403 insufficient_scope', async () => {
    const refused = await since({ start_time: '2000-01-01' }, { key: neither, status: 403 });
    assert.equal(refused.body?.code, 'insufficient_scope');
  });

  if (own) {
    test('a key sees only the types its scopes allow: notes and tasks need the notes grant', async () => {
      const start = await current();
      const added = await server.request(ticketAddBody(userId), { method: 'POST', key });
      const ticketId = Number(added.body?.data);
      await write('close', {
        ticket_id: ticketId,
        body: 'Internal',
        staff_id: agentId,
        status_id: 3,
      });
      await addUser(server.store, 'Una User');
      const { key: ticketsOnly } = await server.createKey({ scopes: ['tickets:read'] });
      const { key: usersOnly } = await server.createKey({ scopes: ['users:read'] });
      const types = async (otherKey: string) =>
        (await readAll({ after: start }, 100, otherKey)).seen.map((event) => event.type);
      assert.deepEqual(await types(ticketsOnly), [
        'ticket.created',
        'ticket.message.created',
        'ticket.status_changed',
      ]);
      assert.deepEqual(await types(usersOnly), ['user.created']);
      assert.deepEqual(await types(key), [
        'ticket.created',
        'ticket.message.created',
        'ticket.note.created',
        'ticket.status_changed',
        'user.created',
      ]);
    });

    test('a change rolled back leaves no event; one committed always has its event', async () => {
      const start = await current();
      await assert.rejects(
        server.store.data(writes).recordWrite({
          actor: { apiKeyId: keyId, clientIp: '127.0.0.1', operation: 'test' },
          async run(trx) {
            await appendEvents(trx, dialect, [probe()]);
            throw new Error('the write fails after its event');
          },
          targetId: () => '0',
          outcome: () => '',
          answer: () => 0,
        }),
        /fails after its event/,
      );
      const refused = await write('reply', { ticket_id: 999_999, body: 'x', staff_id: agentId });
      assert.equal(refused.status, 400);
      assert.deepEqual((await readAll({ after: start }, 100)).seen, []);
      await server.store.data(writes).recordWrite({
        actor: { apiKeyId: keyId, clientIp: '127.0.0.1', operation: 'test' },
        run: (trx) => appendEvents(trx, dialect, [probe()]),
        targetId: () => '0',
        outcome: () => '',
        answer: () => 0,
      });
      const { seen } = await readAll({ after: start }, 100);
      assert.deepEqual(
        seen.map((event) => [event.type, event.user?.id]),
        [['user.created', 999_999]],
      );
    });
  }

  test('a cursor older than the retention → 410 cursor_expired; a made-up one → 400', async () => {
    const old = encodeCursor({ seq: 1, issuedMs: Date.now() - 31 * 86_400_000 });
    const expired = await since({ after: old }, { status: 410 });
    assert.equal(expired.body?.code, 'cursor_expired');
    const young = encodeCursor({ seq: 1, issuedMs: Date.now() - 29 * 86_400_000 });
    await since({ after: young });
    for (const [parameters, field] of [
      [{ after: 'not-a-cursor' }, 'parameters.after'],
      [{}, 'parameters.start_time'],
      [{ start_time: '2026-01-01', after: young }, 'parameters.after'],
      [{ start_time: 'yesterday' }, 'parameters.start_time'],
      [{ start_time: '2026-01-01', limit: 1001 }, 'parameters.limit'],
      [{ start_time: '2026-01-01', types: ['ticket.exploded'] }, 'parameters.types.0'],
    ] as const) {
      const reply = await since(parameters, { status: 400 });
      assert.deepEqual(
        reply.body?.errors?.map((e) => e.field),
        [field],
        JSON.stringify(parameters),
      );
    }
  });

  if (database.kind === 'postgres' || database.kind === 'mysql') {
    // SQLite has one writer: its transactions commit in the order they take sequence numbers.
    // (In osTicket mode deskgate's one reader of osTicket's history appends the events.)
    test('an event of a transaction still open holds back the ones after it, then appears', async () => {
      const start = await current();
      const { db } = openDatabase<object>(database.url);
      let release: () => void = () => {};
      const released = new Promise<void>((resolve) => {
        release = resolve;
      });
      let taken: () => void = () => {};
      const tookSeq = new Promise<void>((resolve) => {
        taken = resolve;
      });
      const held = db.transaction().execute(async (trx) => {
        await insertEvents(tablesOf<EventTables>(trx), dialect, [probe('user.created', 1)]);
        taken();
        await released;
      });
      try {
        await tookSeq;
        const reply = await server.request(ticketAddBody(userId), { method: 'POST', key });
        assert.equal(reply.status, 200, reply.text);
        const before = await page({ after: start, limit: 100 });
        assert.deepEqual(before.events, [], 'nothing past the open transaction’s number');
        assert.equal(before.end_of_stream, true);
        release();
        await held;
        const { seen } = await readAll({ after: before.next }, 100);
        assert.deepEqual(
          seen.map((event) => event.type),
          ['user.created', 'ticket.created', 'ticket.message.created'],
        );
      } finally {
        release();
        await held.catch(() => {});
        await db.destroy();
      }
    });

    test('a gap left by a rollback is passed once the settle time is over', async (t) => {
      const start = await current();
      const { db } = openDatabase<object>(database.url);
      try {
        await db
          .transaction()
          .execute(async (trx) => {
            await insertEvents(tablesOf<EventTables>(trx), dialect, [probe()]);
            throw new Error('rolled back');
          })
          .catch(() => {});
      } finally {
        await db.destroy();
      }
      const reply = await server.request(ticketAddBody(userId), { method: 'POST', key });
      assert.equal(reply.status, 200, reply.text);
      assert.deepEqual((await page({ after: start })).events, [], 'held back at the gap');
      // A second server on the same database, with no settle time: the gap is past at once.
      const quick = await startTestServer(t, {
        database: database.url,
        env: { DESKGATE_EVENTS_SETTLE_MS: '0' },
      });
      const { key: quickKey } = await quick.createKey({ scopes: ['tickets:read'] });
      const answer = await quick.request(
        { query: 'events', condition: 'since', parameters: { after: start } },
        { key: quickKey },
      );
      assert.equal(answer.status, 200, answer.text);
      assert.deepEqual(
        ((answer.body?.data ?? {}) as unknown as Page).events.map((event) => event.type),
        ['ticket.created', 'ticket.message.created'],
      );
    });
  }
});
