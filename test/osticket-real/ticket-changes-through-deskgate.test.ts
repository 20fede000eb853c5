import assert from 'node:assert/strict';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { startHttpProxy } from '../helpers/http-proxy.ts';
import { grantOsticketKey } from '../helpers/osticket-key-grant.ts';
import { addOsticketUser, bridgeModeEnv, ticketCounts } from '../helpers/osticket-ticket-rows.ts';
import { REAL_OSTICKET_SKIP, type RealOsticket } from '../helpers/real-osticket.ts';
import { sharedBridgeOsticket } from '../helpers/shared-osticket.ts';
import { useTestServer } from '../helpers/test-server.ts';

/**
 * deskgate's ticket/note, status, assign, transfer and update in osTicket mode, end to end: the
 * client's key calls deskgate, deskgate calls its osTicket plugin, osTicket's own code writes
 * (the plugin's rows against the staff panel's are proved in ticket-changes.test.ts). What is
 * deskgate's here: the answers, the 409 conflict with osTicket's `updated`, the refusals mapped
 * to deskgate's errors, and an Idempotency-Key claimed before osTicket is called.
 */
describe("deskgate's ticket changes through a real osTicket 1.18.1 and its plugin", {
  skip: REAL_OSTICKET_SKIP,
}, () => {
  let osticket: RealOsticket;
  let userId: number;
  let helper: number;
  let ticketId: number;
  /** deskgate's own osTicket key, bound to deskgate's address. */
  let deskgateKey: string;
  /** Passes each call on to osTicket, lets it finish, and never answers: deskgate times out. */
  let losing: Server;

  before(async () => {
    ({ osticket, deskgateKey } = await sharedBridgeOsticket());
    losing = await startHttpProxy(osticket.baseUrl, (answer, res) => {
      answer.resume();
      answer.on('end', () => res.socket?.destroy());
    });
    userId = await addOsticketUser(osticket, 'tess@example.net', 'Tess Ticket');
    helper = await osticket.insert(
      `INSERT INTO ost_staff (dept_id, role_id, username, firstname, lastname, email, signature, isactive, created, updated)
       VALUES (1, 1, 'helper', 'Hal', 'Helper', 'helper@deskgate.test', '', 1, NOW(), NOW())`,
    );
    // The client's key acts as agent 1 and reads notes, granted as an admin does (SPEC §4a).
    await grantOsticketKey({ url: osticket.databaseUrl }, osticket.apiKey.id, [
      '--scope',
      'tickets:read,tickets:write',
      '--notes',
      '--agent',
      '1',
    ]);
  });
  after(async () => {
    losing?.close();
  });

  const deskgate = useTestServer(() => ({
    database: osticket.databaseUrl,
    env: {
      ...bridgeModeEnv(osticket, deskgateKey),
    },
    ownKey: false,
  }));
  const timingOut = useTestServer(() => ({
    database: osticket.databaseUrl,
    env: {
      DESKGATE_SCHEMA: 'osticket',
      DESKGATE_TABLE_PREFIX: 'ost_',
      DESKGATE_OSTICKET_URL: `http://127.0.0.1:${(losing.address() as AddressInfo).port}${new URL(osticket.baseUrl).pathname}`,
      DESKGATE_OSTICKET_API_KEY: deskgateKey,
      DESKGATE_OSTICKET_BRIDGE: 'true',
      DESKGATE_OSTICKET_TIMEOUT: '1000',
    },
    ownKey: false,
  }));

  const call = (
    condition: string,
    parameters: Record<string, unknown>,
    headers: Record<string, string> = {},
  ) =>
    deskgate.request(
      {
        query: 'ticket',
        condition,
        parameters: { ticket_id: ticketId, staff_id: 1, ...parameters },
      },
      { method: 'POST', key: osticket.apiKey.key, headers },
    );
  const ticketRow = async () =>
    (
      await osticket.query<Record<string, unknown>>(
        'SELECT status_id, staff_id, team_id, dept_id, updated FROM ost_ticket WHERE ticket_id = ?',
        [ticketId],
      )
    )[0] ?? {};
  const events = async () =>
    (
      await osticket.query<{ name: string }>(
        `SELECT e.name FROM ost_thread_event v JOIN ost_event e ON e.id = v.event_id
         JOIN ost_thread t ON t.id = v.thread_id
         WHERE t.object_type = 'T' AND t.object_id = ? ORDER BY v.id`,
        [ticketId],
      )
    ).map((row) => row.name);
  const read = async () => {
    const reply = await deskgate.request(
      { query: 'ticket', condition: 'specific', parameters: { id: ticketId } },
      { key: osticket.apiKey.key },
    );
    assert.equal(reply.status, 200, reply.text);
    const data = reply.body?.data as { tickets: Record<string, unknown>[] } | undefined;
    return data?.tickets[0] ?? {};
  };

  test('set-up: a ticket opened through deskgate', async () => {
    const reply = await deskgate.request(
      {
        query: 'ticket',
        condition: 'add',
        parameters: { title: 'Printer on fire', subject: 'It smokes.', user_id: userId },
      },
      { method: 'POST', key: osticket.apiKey.key },
    );
    assert.equal(reply.status, 200, reply.text);
    ticketId = Number(reply.body?.data);
  });

  test('note: the entry id; an Idempotency-Key retry answers it again and posts nothing more', async () => {
    const headers = { 'Idempotency-Key': `note-${ticketId}` };
    const first = await call(
      'note',
      { title: 'Called', body: 'They <b>will</b> call back.' },
      headers,
    );
    assert.equal(first.status, 200, first.text);
    const counts = await ticketCounts(osticket);
    const again = await call(
      'note',
      { title: 'Called', body: 'They <b>will</b> call back.' },
      headers,
    );
    assert.equal(again.status, 200, again.text);
    assert.equal(again.body?.data, first.body?.data);
    assert.deepEqual(await ticketCounts(osticket), counts);
    const entries = (await read()).entries as Record<string, string>[];
    const note = entries.find((entry) => entry.entry_id === first.body?.data);
    assert.equal(note?.entry_type, 'N');
    assert.equal(note?.entry_title, 'Called');
    assert.match(String(note?.entry_body), /They &lt;b&gt;will&lt;\/b&gt; call back\./);
  });

  test('status: closes with a closed event; the same status again changes nothing', async () => {
    const closed = await call('status', { status_id: 3, comments: 'Fixed.' });
    assert.equal(closed.status, 200, closed.text);
    assert.equal(closed.body?.data, String(ticketId));
    assert.equal(Number((await ticketRow()).status_id), 3);
    assert.equal((await events()).at(-1), 'closed');
    const counts = await ticketCounts(osticket);
    const same = await call('status', { status_id: 3, comments: 'Still fixed.' });
    assert.equal(same.status, 200, same.text);
    assert.deepEqual(await ticketCounts(osticket), counts);
  });

  test("if_unmodified_since: osTicket's current updated passes; a stale one → 409 conflict with it, nothing written", async () => {
    const { updated } = await read();
    assert.equal(updated, String((await ticketRow()).updated));
    const reopened = await call('status', { status_id: 1, if_unmodified_since: updated });
    assert.equal(reopened.status, 200, reopened.text);
    assert.equal((await events()).at(-1), 'reopened');
    const counts = await ticketCounts(osticket);
    const stale = await call('assign', {
      agent_id: helper,
      if_unmodified_since: '2000-01-01 00:00:00',
    });
    assert.equal(stale.status, 409, stale.text);
    assert.equal(stale.body?.code, 'conflict');
    assert.equal(stale.body?.updated, String((await ticketRow()).updated));
    assert.deepEqual(await ticketCounts(osticket), counts);
  });

  test('assign, release, transfer and update do what the panel does; refusals are deskgate errors', async () => {
    const assigned = await call('assign', { agent_id: helper, comments: 'Yours.' });
    assert.equal(assigned.status, 200, assigned.text);
    assert.equal(Number((await ticketRow()).staff_id), helper);
    const released = await call('assign', { agent_id: 0 });
    assert.equal(released.status, 200, released.text);
    assert.equal(Number((await ticketRow()).staff_id), 0);
    const transferred = await call('transfer', { dept_id: 2 });
    assert.equal(transferred.status, 200, transferred.text);
    assert.equal(Number((await ticketRow()).dept_id), 2);
    const updated = await call('update', { priority_id: 4 });
    assert.equal(updated.status, 200, updated.text);
    assert.equal((await read()).priority, 'Emergency');
    assert.deepEqual((await events()).slice(-4), ['assigned', 'released', 'transferred', 'edited']);
    const counts = await ticketCounts(osticket);
    for (const [condition, parameters, field] of [
      ['transfer', { dept_id: 999 }, 'parameters.dept_id'],
      ['update', { topic_id: 999 }, 'parameters.topic_id'],
      ['status', { status_id: 999 }, 'parameters.status_id'],
      ['note', { ticket_id: 999_999, body: 'x' }, 'parameters.ticket_id'],
    ] as const) {
      const reply = await call(condition, parameters);
      assert.equal(reply.status, 400, `${condition} ${reply.text}`);
      assert.deepEqual(
        reply.body?.errors?.map((e) => e.field),
        [field],
      );
    }
    const other = await call('status', { staff_id: helper, status_id: 3 });
    assert.equal(other.status, 403, other.text);
    assert.equal(other.body?.code, 'agent_not_allowed');
    assert.deepEqual(await ticketCounts(osticket), counts);
  });

  test('reply with an Idempotency-Key: one response, one answer', async () => {
    const headers = { 'Idempotency-Key': `reply-${ticketId}` };
    const first = await call('reply', { body: 'On the way.' }, headers);
    assert.equal(first.status, 200, first.text);
    const counts = await ticketCounts(osticket);
    const again = await call('reply', { body: 'On the way.' }, headers);
    assert.equal(again.status, 200, again.text);
    assert.equal(again.body?.data, first.body?.data);
    assert.deepEqual(await ticketCounts(osticket), counts);
  });

  test('a reply whose answer was lost: the retry waits, then answers the reply osTicket posted, never a second', async () => {
    const entries = async () =>
      Number(
        (
          await osticket.query<{ n: number }>(
            `SELECT COUNT(*) n FROM ost_thread_entry e JOIN ost_thread t ON t.id = e.thread_id
             WHERE t.object_type = 'T' AND t.object_id = ? AND e.type = 'R'`,
            [ticketId],
          )
        )[0]?.n ?? 0,
      );
    const count = await entries();
    const send = () =>
      timingOut.request(
        {
          query: 'ticket',
          condition: 'reply',
          parameters: { ticket_id: ticketId, staff_id: 1, body: 'The answer got lost.' },
        },
        { method: 'POST', key: osticket.apiKey.key, headers: { 'Idempotency-Key': 'lost-reply' } },
      );
    const timedOut = await send();
    assert.deepEqual([timedOut.status, timedOut.body?.code], [504, 'osticket_timeout']);
    assert.equal(await entries(), count + 1, 'osTicket posted it; deskgate never heard');
    const inFlight = await send();
    assert.deepEqual([inFlight.status, inFlight.body?.code], [409, 'write_in_progress']);
    // Time passes beyond the timeout and osTicket's own limit.
    await osticket.query(
      `UPDATE deskgate_idempotency_keys SET created_at = created_at - INTERVAL 2 MINUTE WHERE idempotency_key = 'lost-reply'`,
    );
    const recovered = await send();
    assert.equal(recovered.status, 200, recovered.text);
    const [posted] = await osticket.query<{ id: number }>(
      `SELECT MAX(e.id) id FROM ost_thread_entry e JOIN ost_thread t ON t.id = e.thread_id
       WHERE t.object_type = 'T' AND t.object_id = ? AND e.type = 'R'`,
      [ticketId],
    );
    assert.equal(recovered.body?.data, String(posted?.id));
    assert.equal(await entries(), count + 1, 'no second reply');
    assert.equal((await send()).body?.data, String(posted?.id));
  });
});
