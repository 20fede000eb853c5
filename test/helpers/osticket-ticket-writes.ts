import assert from 'node:assert/strict';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { before } from 'node:test';
import type { Reply } from './http.ts';
import { startHttpProxy } from './http-proxy.ts';
import { closeAtTheEnd } from './leak-check.ts';
import { grantOsticketKey } from './osticket-key-grant.ts';
import {
  addOsticketUser,
  addUnusualChoices,
  bridgeModeEnv,
  replyInPanel,
  textBody,
  ticketCounts,
} from './osticket-ticket-rows.ts';
import { type BridgeOsticket, sharedBridgeOsticket } from './shared-osticket.ts';
import { type SmtpSink, startSmtpSink } from './smtp-sink.ts';
import { type TestServer, useTestServer } from './test-server.ts';

/** The osTicket of sharedBridgeOsticket and what the tests of ticket writes on it share. */
export interface TicketWritesOsticket extends BridgeOsticket {
  /** Where osTicket mails (its SMTP accounts point here). */
  sink: SmtpSink;
  /** Tess Ticket (tess@example.net), made through osTicket's API, with a client-portal account (password Portal-Pass-1). */
  userId: number;
  /** A second agent, "helper": the client's key acts as agent 1 only. */
  helper: number;
  /** addUnusualChoices: a 4-hour SLA and an open status "Waiting" osTicket would not choose. */
  slaId: number;
  waitingStatus: number;
  /** A key made for e-mail piping: "Can Create Tickets", never granted anything by deskgate. */
  pipingKey: { id: number; key: string };
  /**
   * A proxy in front of osTicket that passes the request on, lets osTicket finish, and never
   * answers: osTicket wrote, deskgate times out (the case an Idempotency-Key retry must survive).
   */
  losing: Server;
}

let started: Promise<TicketWritesOsticket> | undefined;

/**
 * sharedBridgeOsticket with the users, agent, choices, keys, mail sink and proxy the ticket-write
 * tests use, made once a process: the files of a group share them (osTicket's user and staff
 * names are unique) and each opens tickets of its own.
 */
export function sharedTicketWritesOsticket(): Promise<TicketWritesOsticket> {
  started ??= (async () => {
    const bridge = await sharedBridgeOsticket();
    const { osticket } = bridge;
    const sink = await startSmtpSink();
    await osticket.routeMailTo(sink.port);
    const userId = await addOsticketUser(osticket, 'tess@example.net', 'Tess Ticket');
    // The client portal account of the user (osTicket's own hash of its password).
    const hash = await osticket.runPhp(`echo Passwd::hash('Portal-Pass-1');`);
    await osticket.insert(
      `INSERT INTO ost_user_account (user_id, status, timezone, username, passwd, extra, registered)
       VALUES (?, 1, 'UTC', NULL, ?, '', NOW())`,
      [userId, hash],
    );
    const helper = await osticket.insert(
      `INSERT INTO ost_staff (dept_id, role_id, username, firstname, lastname, email, signature, isactive, created, updated)
       VALUES (1, 1, 'helper', 'Hal', 'Helper', 'helper@deskgate.test', '', 1, NOW(), NOW())`,
    );
    const { slaId, waitingStatus } = await addUnusualChoices(osticket);
    const pipingKey = {
      key: 'B'.repeat(32),
      id: await osticket.insert(
        `INSERT INTO ost_api_key (isactive, ipaddr, apikey, can_create_tickets, can_exec_cron, notes, updated, created)
         VALUES (1, '127.0.0.1', ?, 1, 0, 'mail piping', NOW(), NOW())`,
        ['B'.repeat(32)],
      ),
    };
    const losing = await startHttpProxy(osticket.baseUrl, (answer, res) => {
      answer.resume();
      answer.on('end', () => res.socket?.destroy());
    });
    return { ...bridge, sink, userId, helper, slaId, waitingStatus, pipingKey, losing };
  })();
  return started;
}

closeAtTheEnd(async () => {
  const shared = await started?.catch(() => undefined);
  shared?.losing.close();
  await shared?.sink.stop();
});

/** The ticket most write tests open: fits osTicket's own choices but for its priority. */
export const TICKET_INPUT = {
  title: 'Printer on fire',
  subject: 'It smokes.\nPlease come.',
  topic_id: 1,
  priority_id: 4,
};

/** A ticket and its reply compared with the panel's: both bodies plain text, and who opened it. */
export const AFTER_REPLY = [
  ...textBody(0),
  'entries[0].recipients',
  ...textBody(1),
  'events[0].staff_id',
  'events[0].username',
  'events[0].uid_type',
  'search[0].content',
  'search[1].content',
];

/** A ticket deskgate opened and its twin from the staff panel, for comparing their rows. */
export interface TicketTwins {
  ours: number;
  panel: number;
}

/** What useOsticketTicketWrites gives a suite. */
export interface OsticketTicketWrites {
  /** The shared osTicket and its rows: read it in hooks and tests. */
  readonly shared: TicketWritesOsticket;
  /** deskgate in osTicket mode with the bridge plugin; adds through the plugin act as agent 1. */
  readonly deskgate: TestServer;
  /** ticket/<condition> through `server` as the client's key (POST). */
  call(
    server: TestServer,
    condition: string,
    parameters: Record<string, unknown>,
    headers?: Record<string, string>,
  ): Promise<Reply>;
  /** ticket/add of TICKET_INPUT for Tess with `parameters` over it, through deskgate; resolves to its id. */
  add(parameters?: Record<string, unknown>): Promise<number>;
  /** osTicket's staff panel "New Ticket" for TICKET_INPUT and `fields`; resolves to its id. */
  openInPanel(fields: Record<string, string>): Promise<number>;
  /** TICKET_INPUT opened through deskgate and in the staff panel. */
  openTwins(): Promise<TicketTwins>;
  /** The same reply on both: through deskgate as agent 1, and in the staff panel. */
  replyToTwins(twins: TicketTwins): Promise<void>;
  /** TICKET_INPUT opened, replied to and closed with a note, all through deskgate; resolves to its id. */
  openAnsweredAndClosed(): Promise<number>;
}

/**
 * In a describe of real-osTicket tests of ticket writes: the shared osTicket, the client's key
 * (osTicket's apiKey) granted users:read, tickets:read and tickets:write as agent 1 (with `notes`
 * the notes grant too; the files of a process take turns, each grants before its tests), and
 * deskgate in bridge mode.
 */
export function useOsticketTicketWrites(options: { notes?: boolean } = {}): OsticketTicketWrites {
  let shared: TicketWritesOsticket | undefined;
  const current = (): TicketWritesOsticket => {
    if (!shared) throw new Error('the shared osTicket is set up in a before hook: use it there');
    return shared;
  };
  before(async () => {
    shared = await sharedTicketWritesOsticket();
    // The client's key, granted as an admin does (SPEC §4a).
    await grantOsticketKey({ url: shared.osticket.databaseUrl }, shared.osticket.apiKey.id, [
      '--scope',
      'users:read,tickets:read,tickets:write',
      ...(options.notes ? ['--notes'] : []),
      '--agent',
      '1',
    ]);
  });
  const deskgate = useTestServer(() => ({
    database: current().osticket.databaseUrl,
    env: {
      ...bridgeModeEnv(current().osticket, current().deskgateKey),
      DESKGATE_OSTICKET_BRIDGE_STAFF_ID: '1',
    },
    ownKey: false,
  }));
  const call: OsticketTicketWrites['call'] = (server, condition, parameters, headers = {}) =>
    server.request(
      { query: 'ticket', condition, parameters },
      { method: 'POST', key: current().osticket.apiKey.key, headers },
    );
  const add = async (parameters: Record<string, unknown> = {}) => {
    const reply = await call(deskgate, 'add', {
      ...TICKET_INPUT,
      user_id: current().userId,
      ...parameters,
    });
    assert.equal(reply.status, 200, reply.text);
    return Number(reply.body?.data);
  };
  const replied = async (ticketId: number) => {
    const reply = await call(deskgate, 'reply', {
      ticket_id: ticketId,
      staff_id: 1,
      body: 'We are on it <b>now</b>.',
    });
    assert.equal(reply.status, 200, reply.text);
  };
  const openInPanel = async (fields: Record<string, string>) => {
    const { admin, osticket, userId } = current();
    await admin.get('scp/tickets.php?a=open');
    await admin.postForm('scp/tickets.php?a=open', {
      a: 'open',
      do: 'create',
      uid: String(userId),
      source: 'API',
      topicId: String(TICKET_INPUT.topic_id),
      priority: String(TICKET_INPUT.priority_id),
      subject: TICKET_INPUT.title,
      message: 'It smokes.<br />Please come.',
      'reply-to': 'all',
      ...fields,
    });
    const [latest] = await osticket.query<{ id: number }>(
      'SELECT MAX(ticket_id) AS id FROM ost_ticket',
    );
    return latest?.id as number;
  };
  return {
    get shared() {
      return current();
    },
    deskgate,
    call,
    add,
    openInPanel,
    async openTwins() {
      const ours = await add();
      return { ours, panel: await openInPanel({}) };
    },
    async replyToTwins({ ours, panel }) {
      await replied(ours);
      await replyInPanel(current().admin, panel, 'We are on it &lt;b&gt;now&lt;/b&gt;.');
    },
    async openAnsweredAndClosed() {
      const id = await add();
      await replied(id);
      const closed = await call(deskgate, 'close', {
        ticket_id: id,
        staff_id: 1,
        status_id: 3,
        body: 'Fixed & done.',
        username: current().osticket.admin.username,
      });
      assert.equal(closed.status, 200, closed.text);
      return id;
    },
  };
}

/**
 * In a describe after useOsticketTicketWrites: deskgate in bridge mode calling osTicket through
 * the shared proxy that never answers, timing out after a second.
 */
export function useTimingOutServer(writes: OsticketTicketWrites): TestServer {
  return useTestServer(() => {
    const { osticket, deskgateKey, losing } = writes.shared;
    return {
      database: osticket.databaseUrl,
      env: {
        ...bridgeModeEnv(osticket, deskgateKey),
        DESKGATE_OSTICKET_URL: `http://127.0.0.1:${(losing.address() as AddressInfo).port}${new URL(osticket.baseUrl).pathname}`,
        DESKGATE_OSTICKET_TIMEOUT: '1000',
      },
      ownKey: false,
    };
  });
}

/** What useOsticketTicketChange gives a suite: one ticket and the calls and reads on it. */
export interface OsticketTicketChange {
  /** The ticket, opened through deskgate in a before hook. */
  readonly ticketId: number;
  /** ticket/<condition> of the ticket as agent 1 (parameters may override both), POST. */
  call(
    condition: string,
    parameters: Record<string, unknown>,
    headers?: Record<string, string>,
  ): Promise<Reply>;
  /** Its ost_ticket columns a change touches. */
  ticketRow(): Promise<Record<string, unknown>>;
  /** The names of its thread events, oldest first. */
  events(): Promise<string[]>;
  /** ticket/specific of it through deskgate, as the client's key. */
  read(): Promise<Record<string, unknown>>;
  /** ticket/<condition> with `parameters` → 400 naming exactly `field`, and nothing written. */
  refusesNamingTheField(
    condition: string,
    parameters: Record<string, unknown>,
    field: string,
  ): Promise<void>;
}

/**
 * In a describe after useOsticketTicketWrites: a ticket opened through deskgate before the tests,
 * for ticket/note, status, assign, transfer and update to change (the plugin's rows against the
 * staff panel's are proved in test/osticket-real/ticket-changes.test.ts).
 */
export function useOsticketTicketChange(writes: OsticketTicketWrites): OsticketTicketChange {
  let ticketId: number | undefined;
  const id = (): number => {
    if (ticketId === undefined) throw new Error('the ticket is opened in a before hook');
    return ticketId;
  };
  const osticket = () => writes.shared.osticket;
  before(async () => {
    const reply = await writes.call(writes.deskgate, 'add', {
      title: 'Printer on fire',
      subject: 'It smokes.',
      user_id: writes.shared.userId,
    });
    assert.equal(reply.status, 200, reply.text);
    ticketId = Number(reply.body?.data);
  });
  const call: OsticketTicketChange['call'] = (condition, parameters, headers = {}) =>
    writes.call(
      writes.deskgate,
      condition,
      { ticket_id: id(), staff_id: 1, ...parameters },
      headers,
    );
  return {
    get ticketId() {
      return id();
    },
    call,
    async ticketRow() {
      return (
        (
          await osticket().query<Record<string, unknown>>(
            'SELECT status_id, staff_id, team_id, dept_id, updated FROM ost_ticket WHERE ticket_id = ?',
            [id()],
          )
        )[0] ?? {}
      );
    },
    async events() {
      return (
        await osticket().query<{ name: string }>(
          `SELECT e.name FROM ost_thread_event v JOIN ost_event e ON e.id = v.event_id
           JOIN ost_thread t ON t.id = v.thread_id
           WHERE t.object_type = 'T' AND t.object_id = ? ORDER BY v.id`,
          [id()],
        )
      ).map((row) => row.name);
    },
    async read() {
      const reply = await writes.deskgate.request(
        { query: 'ticket', condition: 'specific', parameters: { id: id() } },
        { key: osticket().apiKey.key },
      );
      assert.equal(reply.status, 200, reply.text);
      const data = reply.body?.data as { tickets: Record<string, unknown>[] } | undefined;
      return data?.tickets[0] ?? {};
    },
    async refusesNamingTheField(condition, parameters, field) {
      const counts = await ticketCounts(osticket());
      const reply = await call(condition, parameters);
      assert.equal(reply.status, 400, `${condition} ${reply.text}`);
      assert.deepEqual(
        reply.body?.errors?.map((e) => e.field),
        [field],
      );
      assert.deepEqual(await ticketCounts(osticket()), counts);
    },
  };
}
