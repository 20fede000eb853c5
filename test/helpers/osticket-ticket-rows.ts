import assert from 'node:assert/strict';
import { join } from 'node:path';
import type { OsticketBrowser } from './osticket-browser.ts';
import { ROOT } from './paths.ts';
import type { RealOsticket } from './real-osticket.ts';
import type { SmtpSink } from './smtp-sink.ts';

export type Row = Record<string, unknown>;
export type TicketRows = Record<string, Row | Row[]>;

/** deskgate's osTicket plugin, as shipped. */
export const BRIDGE_PLUGIN = join(ROOT, 'osticket-plugin', 'deskgate-bridge');

const TIME_COLUMNS = new Set([
  'created',
  'updated',
  'lastupdate',
  'lastmessage',
  'lastresponse',
  'closed',
  'timestamp',
  'est_duedate',
  'reopened',
]);
const ID_COLUMNS = new Set([
  'ticket_id',
  'thread_id',
  'id',
  'object_id',
  'entry_id',
  'pid',
  'lock_id',
]);

/** A row with its ids, number and times replaced by what they are, so two tickets compare. */
function mask(row: Row, number: string): Row {
  const masked: Row = {};
  for (const [column, value] of Object.entries(row)) {
    if (ID_COLUMNS.has(column)) masked[column] = value ? '<id>' : value;
    else if (TIME_COLUMNS.has(column))
      masked[column] = value === null || value === '0000-00-00 00:00:00' ? value : '<time>';
    else if (typeof value === 'string') masked[column] = value.replaceAll(number, '<number>');
    else masked[column] = value;
  }
  return masked;
}

/** The rows osTicket keeps for one ticket (tickets.md §3), masked. */
export async function ticketRows(osticket: RealOsticket, ticketId: number): Promise<TicketRows> {
  const [ticket] = await osticket.query<Row & { number: string }>(
    'SELECT * FROM ost_ticket WHERE ticket_id = ?',
    [ticketId],
  );
  assert.ok(ticket, `no ticket ${ticketId}`);
  const [thread] = await osticket.query<Row & { id: number }>(
    `SELECT * FROM ost_thread WHERE object_id = ? AND object_type = 'T'`,
    [ticketId],
  );
  assert.ok(thread);
  const entries = await osticket.query<Row>(
    'SELECT * FROM ost_thread_entry WHERE thread_id = ? ORDER BY id',
    [thread.id],
  );
  const events = await osticket.query<Row>(
    `SELECT * FROM ost_thread_event WHERE thread_id = ? ORDER BY id`,
    [thread.id],
  );
  const formEntries = await osticket.query<Row>(
    `SELECT * FROM ost_form_entry WHERE object_id = ? AND object_type = 'T' ORDER BY id`,
    [ticketId],
  );
  const values = await osticket.query<Row>(
    `SELECT v.field_id, v.value, v.value_id FROM ost_form_entry_values v JOIN ost_form_entry e ON e.id = v.entry_id
      WHERE e.object_id = ? AND e.object_type = 'T' ORDER BY v.field_id`,
    [ticketId],
  );
  const cdata = await osticket.query<Row>('SELECT * FROM ost_ticket__cdata WHERE ticket_id = ?', [
    ticketId,
  ]);
  const search = await osticket.query<Row>(
    `SELECT object_type, object_id, title, content FROM ost__search
      WHERE (object_type = 'T' AND object_id = ?)
         OR (object_type = 'H' AND object_id IN (SELECT id FROM ost_thread_entry WHERE thread_id = ?))
      ORDER BY object_type, object_id`,
    [ticketId, thread.id],
  );
  const number = ticket.number;
  const m = (rows: Row[]) => rows.map((row) => mask(row, number));
  return {
    ticket: mask(ticket, number),
    thread: mask(thread, number),
    entries: m(entries),
    events: m(events),
    formEntries: m(formEntries),
    values: m(values),
    cdata: m(cdata),
    search: m(search),
  };
}

/** Column-level differences between two tickets' rows, as "table[i].column". */
export function rowDifferences(a: TicketRows, b: TicketRows): string[] {
  const found: string[] = [];
  for (const table of Object.keys(a)) {
    const left = ([] as Row[]).concat(a[table] as Row);
    const right = ([] as Row[]).concat(b[table] as Row);
    if (left.length !== right.length)
      found.push(`${table}.length ${left.length} vs ${right.length}`);
    left.forEach((row, index) => {
      for (const column of Object.keys(row)) {
        if (JSON.stringify(row[column]) !== JSON.stringify(right[index]?.[column])) {
          found.push(`${table}[${index}].${column}`);
        }
      }
    });
  }
  return found;
}

/**
 * What differs from the panel by design: deskgate's bodies are plain text (format 'text',
 * stored HTML-escaped, no "balanced HTML" flag 0x40, searchable text as given).
 */
export const textBody = (index: number) => [
  `entries[${index}].flags`,
  `entries[${index}].body`,
  `entries[${index}].format`,
];

/** The two tickets' rows differ in exactly `expected`. */
export async function assertRowsLikePanel(
  osticket: RealOsticket,
  ours: number,
  panel: number,
  expected: string[],
): Promise<void> {
  const ourRows = await ticketRows(osticket, ours);
  const panelRows = await ticketRows(osticket, panel);
  assert.deepEqual(
    rowDifferences(ourRows, panelRows),
    expected,
    JSON.stringify({ ourRows, panelRows }),
  );
}

/**
 * As an admin installs deskgate's plugin: Admin panel → Manage → Plugins → Add New → Install,
 * enable, then its one instance with `keyIds` on the allow-list.
 */
export async function enableBridgePlugin(
  osticket: RealOsticket,
  admin: OsticketBrowser,
  keyIds: number[],
): Promise<void> {
  await admin.get('scp/plugins.php?a=add');
  const installed = await admin.postForm('scp/plugins.php?a=add', {
    do: 'install',
    install_path: 'deskgate-bridge',
  });
  assert.match(installed.text, /Successfully installed/);
  const [plugin] = await osticket.query<{ id: number; isactive: number }>(
    `SELECT id, isactive FROM ost_plugin WHERE install_path = 'plugins/deskgate-bridge'`,
  );
  assert.ok(plugin);
  await admin.get('scp/plugins.php');
  await admin.postForm('scp/plugins.php', {
    do: 'mass_process',
    a: 'enable',
    'ids[]': String(plugin.id),
  });
  await admin.get(`scp/plugins.php?id=${plugin.id}&a=add-instance`);
  const added = await admin.postForm(`scp/plugins.php?id=${plugin.id}&a=add-instance`, {
    do: 'add-instance',
    a: 'add-instance',
    id: String(plugin.id),
    xid: '0',
    name: 'deskgate',
    isactive: '1',
    notes: '',
    api_key_ids: keyIds.join(','),
  });
  assert.match(added.text, /Added Successfully/);
}

/**
 * deskgate's own osTicket key, as the switch-over guide has the admin make it (active, bound to
 * deskgate's address, here 127.0.0.1, allowed to create tickets), with the bridge plugin enabled
 * for it. Resolves to the key's id.
 */
export async function addBridgeKey(
  osticket: RealOsticket,
  admin: OsticketBrowser,
  key: string,
): Promise<number> {
  const keyId = await osticket.insert(
    `INSERT INTO ost_api_key (isactive, ipaddr, apikey, can_create_tickets, can_exec_cron, notes, updated, created)
     VALUES (1, '127.0.0.1', ?, 1, 0, 'deskgate', NOW(), NOW())`,
    [key],
  );
  await enableBridgePlugin(osticket, admin, [keyId]);
  return keyId;
}

/** The settings of deskgate in osTicket mode with the bridge plugin, calling osTicket with `key`. */
export function bridgeModeEnv(osticket: RealOsticket, key: string): Record<string, string> {
  return {
    DESKGATE_SCHEMA: 'osticket',
    DESKGATE_TABLE_PREFIX: 'ost_',
    DESKGATE_OSTICKET_URL: osticket.baseUrl,
    DESKGATE_OSTICKET_API_KEY: key,
    DESKGATE_OSTICKET_BRIDGE: 'true',
  };
}

/** A user made through osTicket's own API (its first ticket), as an integration would meet one. */
export async function addOsticketUser(
  osticket: RealOsticket,
  email: string,
  name: string,
): Promise<number> {
  const created = await fetch(`${osticket.baseUrl}api/tickets.json`, {
    method: 'POST',
    headers: { 'x-api-key': osticket.apiKey.key },
    body: JSON.stringify({ email, name, subject: 'First', message: 'Hello' }),
  });
  assert.equal(created.status, 201);
  const [row] = await osticket.query<{ id: number }>(
    'SELECT user_id AS id FROM ost_user_email WHERE address = ?',
    [email],
  );
  assert.ok(row);
  return row.id;
}

/** Row counts and the latest change of the ticket tables: equal before and after = nothing written. */
export function ticketCounts(osticket: RealOsticket): Promise<Row[]> {
  return osticket.query<Row>(
    `SELECT (SELECT COUNT(*) FROM ost_ticket) t, (SELECT COUNT(*) FROM ost_thread_entry) e,
            (SELECT COUNT(*) FROM ost_thread_event) v, (SELECT COUNT(*) FROM ost_form_entry) f,
            (SELECT MAX(updated) FROM ost_ticket) u, (SELECT GROUP_CONCAT(status_id) FROM ost_ticket) s`,
  );
}

/** The staff panel's reply, as an agent sends it: lock the ticket, then post with the lock code. */
export async function replyInPanel(
  admin: OsticketBrowser,
  ticketId: number,
  response: string,
): Promise<void> {
  const lock = await admin.postAjax(`scp/ajax.php/lock/ticket/${ticketId}`, {});
  const { code } = JSON.parse(lock.text) as { code: string };
  await admin.get(`scp/tickets.php?id=${ticketId}`);
  await admin.postForm(`scp/tickets.php?id=${ticketId}`, {
    id: String(ticketId),
    a: 'reply',
    lockCode: code,
    'reply-to': 'all',
    response,
  });
}

/** A text reply as osTicket stores it, and its mail to `to` reached the sink. */
export async function assertTextReply(
  osticket: RealOsticket,
  sink: SmtpSink,
  mailsBefore: number,
  entryId: number,
  expected: { body: string; to: string },
): Promise<void> {
  const [entry] = await osticket.query<Row>(
    'SELECT type, staff_id, format, body FROM ost_thread_entry WHERE id = ?',
    [entryId],
  );
  assert.deepEqual(entry, { type: 'R', staff_id: 1, format: 'text', body: expected.body });
  const mails = await sink.waitFor(mailsBefore + 1);
  assert.ok(
    mails.slice(mailsBefore).some((mail) => mail.to.includes(expected.to)),
    JSON.stringify(mails.map((mail) => mail.to)),
  );
}

/** A 4-hour SLA on the 24/7 schedule and an extra open status "Waiting": choices osTicket would not make. */
export async function addUnusualChoices(
  osticket: RealOsticket,
): Promise<{ slaId: number; waitingStatus: number }> {
  const [always] = await osticket.query<{ id: number }>(
    `SELECT id FROM ost_schedule WHERE name LIKE '24/7%'`,
  );
  const slaId = await osticket.insert(
    `INSERT INTO ost_sla (schedule_id, flags, grace_period, name, notes, created, updated)
     VALUES (?, 1, 4, 'Four hours', '', NOW(), NOW())`,
    [always?.id ?? 0],
  );
  const waitingStatus = await osticket.insert(
    `INSERT INTO ost_ticket_status (name, state, mode, flags, sort, properties, created, updated)
     VALUES ('Waiting', 'open', 3, 0, 6, '{}', NOW(), NOW())`,
  );
  return { slaId, waitingStatus };
}
