import { isDeepStrictEqual } from 'node:util';
import type { Probe } from './check-probes.ts';
import type { Reading } from './read-answer.ts';

/** What is known beyond the two answers (from osTicket's database, when the check may read it). */
export interface CompareContext {
  /** Topics whose `flags` lack the active bit; undefined when the database was not read. */
  inactiveTopicIds?: ReadonlySet<string>;
}

/** The differences of one probe: those the guide names (by anchor), and the rest. */
export interface Comparison {
  anchors: string[];
  /** Notes on documented differences the check could not verify. */
  notes: string[];
  undocumented: string[];
}

type Row = Record<string, unknown>;

/** The fields the original answered for a user; deskgate's others are change-user-fields. */
const ORIGINAL_USER_FIELDS = ['user_id', 'name', 'created'];

const fold = (text: string) => text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();

/**
 * What the original answers for a name: PHP's utf8_encode on text that already is UTF-8, each
 * byte read as a Latin-1 character ("Café" → "CafÃ©").
 */
export function doubleEncoded(text: string): string {
  return Buffer.from(text, 'utf8').toString('latin1');
}

/** The original's name is deskgate's, double-encoded: change-non-ascii-names. */
function isDoubleEncoded(before: unknown, now: unknown): boolean {
  return (
    typeof before === 'string' &&
    typeof now === 'string' &&
    before !== now &&
    before === doubleEncoded(now)
  );
}

/** Created on `day` after its first second: what an inclusive end date adds. */
function createdLaterThat(user: Row, day: string): boolean {
  const created = String(user.created ?? '');
  return created.startsWith(day) && created > `${day} 00:00:00`;
}

class Differences implements Comparison {
  anchors: string[] = [];
  notes: string[] = [];
  undocumented: string[] = [];
  add(anchor: string) {
    if (!this.anchors.includes(anchor)) this.anchors.push(anchor);
  }
}

function compareTopic(found: Differences, original: Row, deskgate: Row, probe: Probe): void {
  if (original.id !== deskgate.id) {
    const matches = (row: Row) => fold(String(row.topic)).includes(fold(probe.search ?? '\0'));
    if (probe.kind === 'topic-name' && matches(original) && matches(deskgate)) {
      found.add('change-name-order');
      return;
    }
    found.undocumented.push(`a different topic: ${original.id} vs ${deskgate.id}`);
    return;
  }
  for (const field of new Set([...Object.keys(original), ...Object.keys(deskgate)])) {
    const before = original[field];
    const now = deskgate[field];
    if (isDeepStrictEqual(before, now)) continue;
    if (field === 'notes' && before === null && now === '') found.add('change-notes-null');
    else if (field === 'topic' && isDoubleEncoded(before, now)) found.add('change-non-ascii-names');
    else
      found.undocumented.push(
        `topic ${original.id} ${field}: ${JSON.stringify(before)} vs ${JSON.stringify(now)}`,
      );
  }
}

function compareTopicLists(
  found: Differences,
  original: Row[],
  deskgate: Row[],
  probe: Probe,
  context: CompareContext,
): void {
  const byId = (rows: Row[]) => new Map(rows.map((row) => [String(row.id), row]));
  const before = byId(original);
  const now = byId(deskgate);
  for (const [id, row] of now) {
    if (before.has(id)) continue;
    if (row.parent !== '0') found.add('change-child-topics');
    else if (row.ispublic === '0') found.add('change-private-topics');
    else found.undocumented.push(`topic ${id} answered by deskgate only`);
  }
  for (const id of before.keys()) {
    if (now.has(id)) continue;
    markInactive(found, id, context);
  }
  for (const [id, row] of before) {
    const other = now.get(id);
    if (other) compareTopic(found, row, other, probe);
  }
  // Both order by `sort`; the original leaves ties to MySQL, so only the sort order is compared.
  const order = (rows: Row[]) =>
    rows
      .filter((row) => before.has(String(row.id)) && now.has(String(row.id)))
      .map((row) => String(row.sort));
  if (!isDeepStrictEqual(order(original), order(deskgate)))
    found.undocumented.push('the topics come in another order');
}

function markInactive(found: Differences, id: string, context: CompareContext): void {
  if (!context.inactiveTopicIds) {
    found.add('change-inactive-topics');
    found.notes.push(
      `topic ${id} is taken to be disabled or archived (give --database to verify it)`,
    );
  } else if (context.inactiveTopicIds.has(id)) {
    found.add('change-inactive-topics');
  } else {
    found.undocumented.push(`topic ${id} (active) is not answered by deskgate`);
  }
}

function compareUsers(found: Differences, original: Row[], deskgate: Row[], probe: Probe): void {
  const before = new Map(original.map((row) => [String(row.user_id), row]));
  const now = new Map(deskgate.map((row) => [String(row.user_id), row]));
  for (const [id, row] of now) {
    const other = before.get(id);
    if (!other) {
      if (probe.endDay && createdLaterThat(row, probe.endDay)) found.add('change-end-date');
      else found.undocumented.push(`user ${id} answered by deskgate only`);
      continue;
    }
    for (const field of Object.keys(row)) {
      if (!ORIGINAL_USER_FIELDS.includes(field)) {
        found.add('change-user-fields');
        continue;
      }
      if (field === 'name' && isDoubleEncoded(other[field], row[field]))
        found.add('change-non-ascii-names');
      else if (!isDeepStrictEqual(row[field], other[field]))
        found.undocumented.push(
          `user ${id} ${field}: ${JSON.stringify(other[field])} vs ${JSON.stringify(row[field])}`,
        );
    }
  }
  for (const id of before.keys()) {
    if (!now.has(id)) found.undocumented.push(`user ${id} answered by the original only`);
  }
}

/**
 * A ticket's own columns that the original's `SELECT *` over ticket, thread and entry did not
 * overwrite: these must agree; the rest (user_id, created, …) is the entry's (change-ticket-rows).
 */
const TICKET_OWN_FIELDS = [
  'ticket_id',
  'ticket_pid',
  'number',
  'user_email_id',
  'status_id',
  'dept_id',
  'sla_id',
  'topic_id',
  'team_id',
  'email_id',
  'lock_id',
  'sort',
  'isoverdue',
  'isanswered',
  'duedate',
  'est_duedate',
  'reopened',
  'closed',
  'lastupdate',
  'subject',
];

/**
 * The original answered one row per thread entry (grouped per ticket by ticket/all), deskgate
 * one element per ticket with its `entries`: change-ticket-rows. Everything else must agree.
 */
function compareTickets(found: Differences, original: Row, deskgate: Row): void {
  const rows = (original.tickets as unknown[]).flat() as Row[];
  const tickets = deskgate.tickets as Row[];
  if (original.total !== rows.length) found.undocumented.push(`original total ${original.total}`);
  if (deskgate.total !== tickets.length) found.undocumented.push(`total ${deskgate.total}`);
  const ids = (list: Row[]) => [...new Set(list.map((row) => String(row.ticket_id)))].sort();
  if (!isDeepStrictEqual(ids(rows), ids(tickets))) {
    found.undocumented.push(`tickets ${ids(rows)} vs ${ids(tickets)}`);
    return;
  }
  for (const ticket of tickets) {
    const own = rows.filter((row) => String(row.ticket_id) === String(ticket.ticket_id));
    for (const row of own) {
      for (const field of TICKET_OWN_FIELDS) {
        if (!(field in ticket) || isDeepStrictEqual(row[field], ticket[field])) continue;
        found.undocumented.push(
          `ticket ${ticket.ticket_id} ${field}: ${JSON.stringify(row[field])} vs ${JSON.stringify(ticket[field])}`,
        );
      }
    }
    // Each message or response deskgate answers is one of the original's rows (which also
    // held notes and a task's entries).
    const bodies = new Set(own.map((row) => row.body));
    for (const entry of (ticket.entries ?? []) as Row[]) {
      if (!bodies.has(entry.entry_body))
        found.undocumented.push(`ticket ${ticket.ticket_id} entry ${entry.entry_id}: not a row`);
    }
  }
  if (tickets.length > 0) found.add('change-ticket-rows');
}

/** The catalogue's lists, by their id field; `extra` is what deskgate answers beyond the original. */
const CATALOGUE_LISTS: Record<string, { id: string; extra: string[] }> = {
  departments: { id: 'department_id', extra: ['parent_id'] },
  sla: { id: 'sla_id', extra: ['schedule_id', 'updated'] },
  tasks: { id: 'task_id', extra: [] },
  faq: { id: 'id', extra: [] },
  categories: { id: 'id', extra: [] },
};

/** One value of a catalogue row against the original's, named by the guide's item. */
function compareCatalogueValue(
  found: Differences,
  what: string,
  name: string,
  values: { a: unknown; b: unknown; inOriginal: boolean; extra: readonly string[] },
): void {
  const { a, b, inOriginal, extra } = values;
  if (isDeepStrictEqual(a, b)) return;
  if (!inOriginal && extra.includes(name)) found.add('change-catalogue-fields');
  else if (isDoubleEncoded(a, b) || (name === 'notes' && a === null && b === ''))
    found.add('change-catalogue-strings');
  // Internal notes are answered as "" (DESKGATE_CATALOGUE_VISIBILITY=all answers them).
  else if (name === 'notes' && typeof a === 'string' && b === '')
    found.add('change-catalogue-visibility');
  else found.undocumented.push(`${what} ${name}: ${JSON.stringify(a)} vs ${JSON.stringify(b)}`);
}

/** The fields a task answers beyond the original's task_id, title, description and created. */
const TASK_FIELDS = ['number', 'ticket_id', 'dept_id', 'staff_id', 'duedate', 'closed', 'updated'];

/**
 * The original's `task_id` was the task's thread id, deskgate's is the task's: tasks are paired
 * by creation time and title, and the ids and deskgate's other fields are change-task-fields.
 */
function compareTasks(found: Differences, original: Row[], deskgate: Row[]): void {
  const key = (row: Row) => `${row.created}|${row.title}`;
  const before = new Map(original.map((row) => [key(row), row]));
  for (const row of deskgate) {
    const other = before.get(key(row));
    before.delete(key(row));
    if (!other) {
      found.undocumented.push(`task ${row.task_id} answered by deskgate only`);
      continue;
    }
    if (other.task_id !== row.task_id || TASK_FIELDS.some((name) => name in row))
      found.add('change-task-fields');
    for (const name of ['title', 'description', 'created'])
      compareCatalogueValue(found, `task ${row.task_id}`, name, {
        a: other[name],
        b: row[name],
        inOriginal: true,
        extra: [],
      });
  }
  for (const row of before.values())
    found.undocumented.push(`task ${row.task_id} answered by the original only`);
}

function compareCatalogue(found: Differences, original: Row, deskgate: Row): boolean {
  const field = Object.keys(CATALOGUE_LISTS).find(
    (name) => Array.isArray(original[name]) && Array.isArray(deskgate[name]),
  );
  if (!field) return false;
  if (field === 'tasks') {
    compareTasks(found, original.tasks as Row[], deskgate.tasks as Row[]);
    return true;
  }
  const { id, extra } = CATALOGUE_LISTS[field] as { id: string; extra: string[] };
  const before = new Map((original[field] as Row[]).map((row) => [String(row[id]), row]));
  const now = new Map((deskgate[field] as Row[]).map((row) => [String(row[id]), row]));
  // The original listed top-level departments only (change-department-children).
  const children = [...now.entries()].filter(
    ([key, row]) => !before.has(key) && field === 'departments' && String(row.parent_id) !== '0',
  );
  if (children.length) found.add('change-department-children');
  const answered = [...now.keys()].filter((key) => !children.some(([child]) => child === key));
  if (!isDeepStrictEqual([...before.keys()].sort(), answered.sort()))
    found.undocumented.push(`${field} ${[...before.keys()]} vs ${[...now.keys()]}`);
  if (Number(original.total) + children.length !== Number(deskgate.total))
    found.undocumented.push(`total ${original.total} vs ${deskgate.total}`);
  for (const [key, row] of now) {
    const other = before.get(key);
    if (!other) continue;
    for (const name of new Set([...Object.keys(row), ...Object.keys(other)]))
      compareCatalogueValue(found, `${field} ${key}`, name, {
        a: other[name],
        b: row[name],
        inOriginal: name in other,
        extra,
      });
  }
  return true;
}

/** One probe and what each side answered to it. */
interface ProbeAnswers {
  probe: Probe;
  original: Reading;
  deskgate: Reading;
}

function compareSuccesses(
  found: Differences,
  { probe, original, deskgate }: ProbeAnswers,
  context: CompareContext,
): void {
  const before = original.data;
  const now = deskgate.data;
  if (probe.kind === 'user-add') {
    // Each side made its own user: both answer a new id.
    if (!isId(before) || !isId(now))
      found.undocumented.push(
        `user/add answered ${JSON.stringify(before)} vs ${JSON.stringify(now)}`,
      );
    // The original put the phone unquoted into its SQL: a leading zero or punctuation changed
    // what it stored (0612345678 → 612345678, 555-123-4567 → -4135); deskgate keeps the digits.
    else if (typeof probe.phone === 'string' && !/^[1-9][0-9]*$/.test(probe.phone))
      found.add('change-phones');
    return;
  }
  const a = (before ?? {}) as Row;
  const b = (now ?? {}) as Row;
  if (a.topic && b.topic) {
    compareTopic(found, a.topic as Row, b.topic as Row, probe);
  } else if (Array.isArray(a.topics) && Array.isArray(b.topics)) {
    compareTopicLists(found, a.topics as Row[], b.topics as Row[], probe, context);
  } else if (Array.isArray(a.users) && Array.isArray(b.users)) {
    compareUsers(found, a.users as Row[], b.users as Row[], probe);
    if (a.total !== b.total && b.total === (b.users as Row[]).length && a.total === a.users.length)
      return; // each counts its own list; the lists were compared
    if (a.total !== b.total) found.undocumented.push(`total ${a.total} vs ${b.total}`);
  } else if (probe.kind === 'ticket' && Array.isArray(a.tickets) && Array.isArray(b.tickets)) {
    compareTickets(found, a, b);
  } else if (probe.kind === 'catalogue' && compareCatalogue(found, a, b)) {
    return;
  } else if (!isDeepStrictEqual(before, now))
    found.undocumented.push(`data ${JSON.stringify(before)} vs ${JSON.stringify(now)}`);
}

/** The lists an answer can hold: an empty one was the original's "No items found.". */
const LIST_FIELDS = [
  'users',
  'topics',
  'tickets',
  'departments',
  'categories',
  'faq',
  'sla',
  'tasks',
];

/**
 * The original's tasks/all by creationDate pasted its `ticket_id` unquoted into its SQL, so a
 * request without one (all a date range needs) failed with MySQL's syntax error.
 */
function isTasksDateDefect(probe: Probe, original: Reading): boolean {
  const body = probe.body as { query?: unknown; sort?: unknown; parameters?: Row };
  return (
    body.query === 'tasks' &&
    body.sort === 'creationDate' &&
    body.parameters?.ticket_id === undefined &&
    (original.message ?? '').startsWith('You have an error in your SQL syntax')
  );
}

/** The `ticket_id` of the first ticket a ticket/specific answered, if it found one. */
function firstTicketId(reading: Reading): unknown {
  if (reading.outcome !== 'success') return undefined;
  return ((reading.data as { tickets?: Row[] } | undefined)?.tickets?.[0] as Row | undefined)
    ?.ticket_id;
}

const isId = (value: unknown) => typeof value === 'string' && /^[1-9][0-9]*$/.test(value);

/** The original's answer to a request missing one of the fields it required. */
const ORIGINAL_MISSING_FIELDS = /^Empty or Incorrect fields/;

/**
 * A step of the throwaway ticket's life, each side on its own ticket: an id answered by both is
 * the same outcome (the original answered the highest ticket id for every write, deskgate the
 * new ticket's or entry's: change-ticket-writes).
 */
function compareTicketWrite(found: Differences, { probe, original, deskgate }: ProbeAnswers): void {
  const o = original.outcome;
  const n = deskgate.outcome;
  const code = deskgate.code;
  if (n === 'error' && code === 'requires_osticket_bridge') found.add('change-ticket-writes');
  else if (n === 'error' && (code === 'insufficient_scope' || code === 'agent_not_allowed'))
    found.add('change-users-read');
  else if (probe.ticketWrite === 'close-original') {
    if (o === 'success' && n === 'error' && deskgate.fields?.includes('parameters'))
      found.add('change-close-fields');
    else if (!(o === 'success' && n === 'success' && isId(original.data) && isId(deskgate.data)))
      found.undocumented.push('ticket/close answered differently');
  } else if (probe.ticketWrite === 'close-guide') {
    // The original required every field; deskgate takes them left out.
    if (o === 'error' && ORIGINAL_MISSING_FIELDS.test(original.message ?? '') && n === 'success')
      found.add('change-close-fields');
    else found.undocumented.push('ticket/close without the original fields answered differently');
  } else if (o === 'success' && n === 'success' && isId(original.data) && isId(deskgate.data))
    found.add('change-ticket-writes');
  else found.undocumented.push(`ticket/${probe.ticketWrite} answered differently`);
}

/**
 * Compares what the original and deskgate answered to one probe, naming each difference by the
 * switch-over guide's anchor for it, or listing it as undocumented. `time` is never compared.
 */
export function compareReadings(
  probe: Probe,
  original: Reading,
  deskgate: Reading,
  context: CompareContext = {},
): Comparison {
  const found = new Differences();
  if (probe.kind === 'ticket-write') {
    compareTicketWrite(found, { probe, original, deskgate });
    return found;
  }
  const o = original.outcome;
  const n = deskgate.outcome;
  if (probe.numberInId && o === 'success' && firstTicketId(deskgate) !== firstTicketId(original)) {
    found.add('change-ticket-number-in-id');
  } else if (
    n === 'error' &&
    deskgate.code === 'insufficient_scope' &&
    (probe.body as Row).query === 'tasks'
  ) {
    // Tasks need the notes grant (decision 322), whatever the original answered.
    found.add('change-tasks-notes');
  } else if (o === 'not-found' && n === 'not-found') {
    if (original.status !== deskgate.status) found.add('change-204');
  } else if (o === 'error' && n === 'error') {
    if (original.status !== deskgate.status || original.message !== deskgate.message)
      found.add('change-errors');
  } else if (o === 'success' && n === 'success') {
    compareSuccesses(found, { probe, original, deskgate }, context);
  } else if (o === 'success' && n === 'not-found') {
    found.add('change-204');
    const topic = (original.data as { topic?: Row } | undefined)?.topic;
    if (probe.kind === 'topic-name' && /[%_]/.test(probe.search ?? ''))
      found.add('change-name-wildcards');
    else if (probe.kind.startsWith('topic') && topic?.id !== undefined)
      markInactive(found, String(topic.id), context);
    else found.undocumented.push('found by the original, not found by deskgate');
  } else if (o === 'success' && n === 'error') {
    const code = deskgate.code;
    if (code === 'ip_not_allowed') found.add('change-key-address');
    // A right osTicket does not give the key: granted per key (SPEC §4a).
    else if (code === 'insufficient_scope' || code === 'agent_not_allowed')
      found.add('change-users-read');
    else if (code === 'account_grant_required') found.add('change-user-organizations');
    else if (code === 'too_many_requests') found.add('change-rate-limit');
    else if (code === 'too_many_results') found.add('change-lists');
    else if (probe.phone !== undefined && deskgate.fields?.includes('parameters.phone'))
      found.add('change-phones');
    else found.undocumented.push(`the original succeeded, deskgate refused (${code ?? 'no code'})`);
  } else if (n === 'success') {
    const data = deskgate.data as Row | undefined;
    const topic = data?.topic as Row | undefined;
    const list = LIST_FIELDS.map((field) => data?.[field]).find(Array.isArray) as
      | unknown[]
      | undefined;
    const users = (data?.users ?? []) as Row[];
    if (o === 'not-found' && topic?.ispublic === '0') found.add('change-private-topics');
    else if (o === 'not-found' && list?.length === 0) found.add('change-empty-lists');
    else if (
      o === 'not-found' &&
      probe.endDay !== undefined &&
      users.every((u) => createdLaterThat(u, probe.endDay as string))
    ) {
      // The original found none because its end date stopped at midnight.
      found.add('change-end-date');
      found.add('change-empty-lists');
    } else if (
      o === 'error' &&
      original.message === 'Unknown Parameter.' &&
      !('sort' in (probe.body as Row))
    )
      found.add('change-sort');
    else if (o === 'error' && isTasksDateDefect(probe, original)) found.add('change-tasks-by-date');
    else found.undocumented.push('refused or not found by the original, answered by deskgate');
  } else {
    found.undocumented.push(
      o === 'not-found'
        ? 'the original found nothing, deskgate refused'
        : 'the original refused, deskgate found nothing',
    );
  }
  return found;
}
