import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { type Row, ticketCounts, ticketRows } from '../helpers/osticket-ticket-rows.ts';
import {
  TICKET_INPUT as input,
  useOsticketTicketWrites,
} from '../helpers/osticket-ticket-writes.ts';
import { REAL_OSTICKET_SKIP, type RealOsticket } from '../helpers/real-osticket.ts';
import { useTestServer } from '../helpers/test-server.ts';

/**
 * The bridge by which deskgate's ticket writes in osTicket mode are done by a real osTicket's own
 * code (its API, deskgate's plugin): what holds across the writes. Each write's own tests are in
 * its folder (src/operations/ticket-add/ticket-add-osticket.test.ts and the like).
 */
describe("deskgate's bridge for ticket writes to a real osTicket 1.18.1", {
  skip: REAL_OSTICKET_SKIP,
}, () => {
  let osticket: RealOsticket;
  let userId: number;
  /** deskgate's own osTicket key, bound to deskgate's address (127.0.0.1 here). */
  let deskgateKey: string;
  /** A key made for e-mail piping: "Can Create Tickets", never granted anything by deskgate. */
  let pipingKey: { id: number; key: string };
  /** Opened, answered and closed through deskgate (osTicket's stock API, then the plugin). */
  let stockTicket: number;
  /** Opened through the plugin: with a department, SLA and status osTicket would not choose. */
  let pluginTicket: number;

  const writes = useOsticketTicketWrites();
  const { deskgate, call } = writes;
  const unconfigured = useTestServer(() => ({
    database: writes.shared.osticket.databaseUrl,
    env: { DESKGATE_SCHEMA: 'osticket', DESKGATE_TABLE_PREFIX: 'ost_' },
    ownKey: false,
  }));
  before(async () => {
    ({ osticket, userId, deskgateKey, pipingKey } = writes.shared);
    stockTicket = await writes.openAnsweredAndClosed();
    const { slaId, waitingStatus } = writes.shared;
    pluginTicket = await writes.add({ dept_id: 2, sla_id: slaId, status_id: waitingStatus });
  });

  test('cron twice changes nothing in the tickets', async () => {
    const before = [
      await ticketRows(osticket, stockTicket),
      await ticketRows(osticket, pluginTicket),
      await ticketCounts(osticket),
    ];
    await osticket.runCron();
    await osticket.runCron();
    assert.deepEqual(
      [
        await ticketRows(osticket, stockTicket),
        await ticketRows(osticket, pluginTicket),
        await ticketCounts(osticket),
      ],
      before,
    );
  });

  test("refusals are deskgate's envelope and write nothing; deskgate's key is never echoed", async () => {
    const before = await ticketCounts(osticket);
    const unknownUser = await call(deskgate, 'add', { ...input, user_id: 999_999 });
    assert.deepEqual(unknownUser.body?.errors, [
      { field: 'parameters.user_id', message: 'is not an existing user' },
    ]);
    const badSla = await call(deskgate, 'add', { ...input, user_id: userId, sla_id: 999 });
    assert.equal(badSla.status, 400);
    assert.equal(badSla.body?.errors?.[0]?.field, 'parameters.sla_id');
    const noTicket = await call(deskgate, 'reply', { ticket_id: 999_999, staff_id: 1, body: 'x' });
    assert.equal(noTicket.body?.errors?.[0]?.field, 'parameters.ticket_id');
    for (const answer of [unknownUser, badSla, noTicket]) {
      assert.doesNotMatch(JSON.stringify(answer.body), new RegExp(deskgateKey));
    }
    assert.deepEqual(await ticketCounts(osticket), before);
    assert.doesNotMatch(deskgate.output.join('\n'), new RegExp(deskgateKey));
  });

  test('without DESKGATE_OSTICKET_URL and _API_KEY: 501 naming what to set up, nothing written', async () => {
    const before = await ticketCounts(osticket);
    for (const [condition, parameters] of [
      ['add', { ...input, user_id: userId }],
      ['reply', { ticket_id: pluginTicket, staff_id: 1, body: 'x' }],
      ['close', { ticket_id: pluginTicket, staff_id: 1, status_id: 3 }],
    ] as const) {
      const reply = await call(unconfigured, condition, parameters);
      assert.equal(reply.status, 501, condition);
      assert.equal(reply.body?.code, 'requires_osticket_bridge');
      assert.match(String(reply.body?.data), /DESKGATE_OSTICKET_URL and DESKGATE_OSTICKET_API_KEY/);
    }
    assert.deepEqual(await ticketCounts(osticket), before);
  });

  test("with the plugin disabled in osTicket's panel: 501 saying osTicket does not serve its routes", async () => {
    const before = await ticketCounts(osticket);
    const plugin = "install_path LIKE '%deskgate-bridge%'";
    await osticket.query(`UPDATE ost_plugin SET isactive = 0 WHERE ${plugin}`);
    try {
      const reply = await call(deskgate, 'reply', {
        ticket_id: pluginTicket,
        staff_id: 1,
        body: 'x',
      });
      assert.equal(reply.status, 501, reply.text);
      assert.equal(reply.body?.code, 'requires_osticket_bridge');
      assert.match(String(reply.body?.data), /osTicket does not serve the plugin's routes/);
      assert.doesNotMatch(String(reply.body?.data), /set DESKGATE_OSTICKET_BRIDGE/);
    } finally {
      await osticket.query(`UPDATE ost_plugin SET isactive = 1 WHERE ${plugin}`);
    }
    assert.deepEqual(await ticketCounts(osticket), before);
  });

  // Issue 32 (SPEC §4a): a piping key gets through deskgate what osTicket's API lets it do.
  test("an ungranted piping key opens a ticket with osTicket's choices and can do nothing else", async () => {
    const as = (body: unknown, method = 'POST') =>
      deskgate.request(body, { method, key: pipingKey.key });
    const opened = await as({
      query: 'ticket',
      condition: 'add',
      parameters: { title: 'Piped', subject: 'From the mailbox.', user_id: userId },
    });
    assert.equal(opened.status, 200, JSON.stringify(opened.body));
    const ticketId = Number(opened.body?.data);
    const [row] = await osticket.query<Row>(
      'SELECT dept_id, source FROM ost_ticket WHERE ticket_id = ?',
      [ticketId],
    );
    assert.deepEqual(row, { dept_id: 1, source: 'API' });
    const before = await ticketCounts(osticket);
    const refusals = [
      [
        { query: 'ticket', condition: 'all', sort: 'status', parameters: { status: 0 } },
        'GET',
        'insufficient_scope',
      ],
      [
        { query: 'ticket', condition: 'specific', parameters: { id: ticketId } },
        'GET',
        'insufficient_scope',
      ],
      [
        {
          query: 'user',
          condition: 'all',
          parameters: { start_date: '2020-01-01', end_date: '2040-01-01' },
        },
        'GET',
        'insufficient_scope',
      ],
      [
        { query: 'user', condition: 'specific', parameters: { id: userId } },
        'GET',
        'insufficient_scope',
      ],
      [
        {
          query: 'ticket',
          condition: 'reply',
          parameters: { ticket_id: ticketId, body: 'Signed by the admin?', staff_id: 1 },
        },
        'POST',
        'agent_not_allowed',
      ],
      [
        {
          query: 'ticket',
          condition: 'close',
          parameters: { ticket_id: ticketId, staff_id: 1, status_id: 3 },
        },
        'POST',
        'agent_not_allowed',
      ],
      // A department osTicket would not choose goes through the plugin as an agent: none here.
      [
        {
          query: 'ticket',
          condition: 'add',
          parameters: { title: 'X', subject: 'Y', user_id: userId, dept_id: 2 },
        },
        'POST',
        'agent_not_allowed',
      ],
    ] as const;
    for (const [body, method, code] of refusals) {
      const refused = await as(body, method);
      assert.deepEqual([refused.status, refused.body?.code], [403, code], JSON.stringify(body));
    }
    assert.deepEqual(await ticketCounts(osticket), before, 'nothing written');
  });
});
