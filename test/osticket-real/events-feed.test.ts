import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import type { FeedEvent } from '../../src/data/events/event.ts';
import type { OsticketBrowser } from '../helpers/osticket-browser.ts';
import { grantOsticketKey } from '../helpers/osticket-key-grant.ts';
import {
  addBridgeKey,
  addOsticketUser,
  BRIDGE_PLUGIN,
  bridgeModeEnv,
  replyInPanel,
} from '../helpers/osticket-ticket-rows.ts';
import {
  REAL_OSTICKET_SKIP,
  type RealOsticket,
  startRealOsticket,
} from '../helpers/real-osticket.ts';
import { type SmtpSink, startSmtpSink } from '../helpers/smtp-sink.ts';
import { useTestServer } from '../helpers/test-server.ts';

const skip = REAL_OSTICKET_SKIP;

interface Page {
  events: FeedEvent[];
  next: string;
  end_of_stream: boolean;
}

/**
 * Issue 36, item 2: what happens in osTicket itself (the staff panel, osTicket's own code) reaches
 * the feed through deskgate's reader of osTicket's history, and what deskgate does through the
 * bridge is attributed to the key that asked.
 */
describe('the feed in osTicket mode, from a real osTicket 1.18.1', { skip }, () => {
  let osticket: RealOsticket;
  let sink: SmtpSink;
  let admin: OsticketBrowser;
  let ticketId: number;
  const deskgateKey = 'E'.repeat(32);

  before(async () => {
    sink = await startSmtpSink();
    osticket = await startRealOsticket({ plugins: [BRIDGE_PLUGIN] });
    await osticket.routeMailTo(sink.port);
    admin = await osticket.staffBrowser();
    await addBridgeKey(osticket, admin, deskgateKey);
    await grantOsticketKey({ url: osticket.databaseUrl }, osticket.apiKey.id, [
      '--scope',
      'users:read,tickets:read,tickets:write',
      '--agent',
      '1',
      '--notes',
    ]);
  });
  after(async () => {
    await osticket?.stop();
    await sink?.stop();
  });

  const deskgate = useTestServer(() => ({
    database: osticket.databaseUrl,
    env: {
      ...bridgeModeEnv(osticket, deskgateKey),
      DESKGATE_OSTICKET_BRIDGE_STAFF_ID: '1',
    },
    ownKey: false,
  }));

  async function since(parameters: Record<string, unknown>): Promise<Page> {
    const reply = await deskgate.request(
      { query: 'events', condition: 'since', parameters },
      { key: osticket.apiKey.key },
    );
    assert.equal(reply.status, 200, reply.text);
    return reply.body?.data as unknown as Page;
  }

  /** The feed from `cursor` until `found` holds of what it served (a minute at most). */
  async function waitFor(
    cursor: string,
    found: (events: FeedEvent[]) => boolean,
  ): Promise<{ events: FeedEvent[]; next: string }> {
    const events: FeedEvent[] = [];
    let next = cursor;
    for (let tries = 0; tries < 120; tries++) {
      const page = await since({ after: next, limit: 1000 });
      events.push(...page.events);
      next = page.next;
      if (found(events)) return { events, next };
      if (page.end_of_stream) await sleep(500);
    }
    assert.fail(`not in the feed within a minute: ${JSON.stringify(events)}`);
  }

  /** The feed's position now, once the reader has started (it begins at osTicket's present). */
  async function now(): Promise<string> {
    return (await since({ start_time: '2000-01-01T00:00:00Z', limit: 1000 })).next;
  }

  test('a ticket opened through osTicket’s API and a reply in the staff panel reach the feed', async () => {
    // The reader starts at osTicket's present: wait until it has stored where that is.
    for (let tries = 0; tries < 120; tries++) {
      const stored = await osticket.query('SELECT source FROM deskgate_event_positions');
      if (stored.length === 3) break;
      await sleep(500);
    }
    const cursor = await now();
    await addOsticketUser(osticket, 'tess@example.net', 'Tess Ticket');
    const [ticket] = await osticket.query<{ id: number; number: string }>(
      'SELECT ticket_id AS id, number FROM ost_ticket ORDER BY ticket_id DESC LIMIT 1',
    );
    assert.ok(ticket);
    ticketId = ticket.id;
    const opened = await waitFor(cursor, (events) =>
      events.some((e) => e.type === 'ticket.message.created' && e.ticket?.id === ticketId),
    );
    const created = opened.events.find(
      (e) => e.type === 'ticket.created' && e.ticket?.id === ticketId,
    );
    assert.ok(created, JSON.stringify(opened.events));
    assert.equal(created.ticket?.number, ticket.number);
    assert.ok(opened.events.some((e) => e.type === 'user.created'));

    await replyInPanel(admin, ticketId, 'Looking into it.');
    const [entry] = await osticket.query<{ id: number }>(
      "SELECT id FROM ost_thread_entry WHERE type = 'R' ORDER BY id DESC LIMIT 1",
    );
    assert.ok(entry, 'the panel posted the reply');
    const replied = await waitFor(opened.next, (events) =>
      events.some((e) => e.type === 'ticket.reply.created'),
    );
    const reply = replied.events.find((e) => e.type === 'ticket.reply.created');
    assert.deepEqual(reply?.ticket, { id: ticketId, number: ticket.number });
    assert.equal(reply?.data.entry_id, entry.id);
    assert.equal(reply?.actor.type, 'staff');
    assert.equal(reply?.actor.id, osticket.admin.id);
    assert.equal(reply?.actor.api_key_id, undefined, 'the panel used no key');
    assert.ok(!JSON.stringify(reply).includes('Looking into it'), 'no body');
  });

  test('a reply deskgate posts through osTicket names the key that asked', async () => {
    const cursor = await now();
    const posted = await deskgate.request(
      {
        query: 'ticket',
        condition: 'reply',
        parameters: { ticket_id: ticketId, body: 'On my way.', staff_id: 1 },
      },
      { method: 'POST', key: osticket.apiKey.key },
    );
    assert.equal(posted.status, 200, posted.text);
    const { events } = await waitFor(cursor, (all) =>
      all.some((e) => e.type === 'ticket.reply.created'),
    );
    const reply = events.find((e) => e.type === 'ticket.reply.created');
    assert.equal(reply?.data.entry_id, Number(posted.body?.data));
    assert.equal(reply?.actor.api_key_id, osticket.apiKey.id, JSON.stringify(reply));
  });

  test('osTicket closes and deletes the ticket: the deletion still names it', async () => {
    const cursor = await now();
    await osticket.runPhp(`Ticket::lookup(${ticketId})->setStatus(3);`);
    // Read before the deletion: osTicket detaches a deleted ticket's history from it (decision 384).
    const closed = await waitFor(cursor, (all) =>
      all.some((e) => e.type === 'ticket.status_changed' && e.ticket?.id === ticketId),
    );
    assert.deepEqual(closed.events.find((e) => e.type === 'ticket.status_changed')?.data.status, {
      id: 3,
      name: 'Closed',
    });
    await osticket.runPhp(`Ticket::lookup(${ticketId})->delete();`);
    assert.deepEqual(
      await osticket.query('SELECT ticket_id FROM ost_ticket WHERE ticket_id = ?', [ticketId]),
      [],
    );
    const { events } = await waitFor(closed.next, (all) =>
      all.some((e) => e.type === 'ticket.deleted'),
    );
    const deleted = events.find((e) => e.type === 'ticket.deleted');
    assert.equal(deleted?.ticket?.id, ticketId, JSON.stringify(deleted));
  });
});
