import { randomBytes } from 'node:crypto';
import { createConnection } from 'mysql2/promise';
import {
  listProbes,
  lookupProbes,
  type Probe,
  type ReadTargets,
  refusalProbes,
  type TicketWriteValues,
  topicProbes,
  userAddProbes,
  userListProbes,
  userLookupProbes,
} from './check-probes.ts';
import { type CompareContext, type Comparison, compareReadings } from './compare-readings.ts';
import { describeReading, type Reading, readAnswer } from './read-answer.ts';
import { type Exchange, sendExchange } from './send-exchange.ts';
import { type CreatedTicket, checkTicketWrites, type Side } from './ticket-write-check.ts';

export interface CheckTarget {
  url: string;
  key: string;
}

export interface ProbeResult extends Comparison {
  probe: string;
  writes: boolean;
  original: string;
  deskgate: string;
}

/** Pages deskgate's user/all follows before giving up (a runaway `next` would never end). */
const MAX_PAGES = 1000;

async function send(target: CheckTarget, probe: Probe, body: unknown): Promise<Reading> {
  const exchange: Exchange = {
    method: probe.method,
    body,
    key: probe.key === 'none' ? undefined : (probe.key ?? target.key),
  };
  return readAnswer(await sendExchange(target.url, exchange));
}

/**
 * deskgate's user/all pages a long list; a client following `next` sees every user, which is
 * what is compared (the paging itself is change-lists).
 */
async function followPages(target: CheckTarget, probe: Probe, first: Reading): Promise<boolean> {
  let page = first;
  const data = first.data as { users: unknown[]; total: number; next?: string };
  if (!data?.next) return false;
  const body = probe.body as { parameters: Record<string, unknown> };
  for (let i = 0; i < MAX_PAGES && (page.data as { next?: string })?.next; i++) {
    const after = (page.data as { next: string }).next;
    page = await send(target, probe, { ...body, parameters: { ...body.parameters, after } });
    if (page.outcome !== 'success') break;
    data.users.push(...(page.data as { users: unknown[] }).users);
  }
  data.total = data.users.length;
  delete data.next;
  return true;
}

async function runProbe(
  probe: Probe,
  original: CheckTarget,
  deskgate: CheckTarget,
  context: CompareContext,
): Promise<{ result: ProbeResult; original: Reading; deskgate: Reading }> {
  const a = await send(original, probe, probe.bodies?.original ?? probe.body);
  const b = await send(deskgate, probe, probe.bodies?.deskgate ?? probe.body);
  const shown = describeReading(b);
  const paged =
    probe.kind === 'user-list' &&
    b.outcome === 'success' &&
    (await followPages(deskgate, probe, b));
  const comparison = compareReadings(probe, a, b, context);
  if (paged && !comparison.anchors.includes('change-lists'))
    comparison.anchors.unshift('change-lists');
  return {
    result: {
      probe: probe.name,
      writes: probe.writes === true,
      original: describeReading(a),
      deskgate: paged ? `${shown} (followed to ${describeReading(b)})` : shown,
      ...comparison,
    },
    original: a,
    deskgate: b,
  };
}

/** The database facts a comparison can use: every topic's id, and which are inactive. */
export async function readTopicFacts(
  databaseUrl: string,
  prefix: string,
): Promise<{ ids: string[]; inactive: Set<string> }> {
  const connection = await createConnection({ uri: databaseUrl });
  try {
    await connection.query('SET SESSION TRANSACTION READ ONLY');
    const [rows] = await connection.query(
      `SELECT topic_id, flags FROM \`${prefix}help_topic\` ORDER BY topic_id`,
    );
    const topics = rows as { topic_id: number; flags: number }[];
    return {
      ids: topics.map((t) => String(t.topic_id)),
      inactive: new Set(topics.filter((t) => (t.flags & 2) === 0).map((t) => String(t.topic_id))),
    };
  } finally {
    await connection.end();
  }
}

const listIds = (reading: Reading, field: 'topics' | 'users', id: string) =>
  reading.outcome === 'success'
    ? ((reading.data as Record<string, Record<string, unknown>[]>)[field] ?? []).map((row) =>
        String(row[id]),
      )
    : [];

type Rows = Record<string, Record<string, unknown>[]>;

/** The first ticket, department, FAQ category, SLA plan and task deskgate's lists answered. */
function collectTargets(targets: ReadTargets, probe: Probe, reading: Reading): void {
  if (reading.outcome !== 'success') return;
  const data = reading.data as Rows;
  const first = (field: string) => data[field]?.[0];
  const query = (probe.body as { query: string }).query;
  const ticket = first('tickets');
  if (query === 'ticket' && ticket && !targets.ticket)
    targets.ticket = { id: String(ticket.ticket_id), number: String(ticket.number) };
  const department = first('departments');
  if (department) targets.departmentId ??= String(department.department_id);
  const category = first('categories');
  if (category) targets.faqCategoryId ??= String(category.id);
  const sla = first('sla');
  if (sla) targets.slaId ??= String(sla.sla_id);
  const task = first('tasks');
  if (task) targets.taskId ??= String(task.id ?? task.task_id);
}

/** What a writing check left on the help desk. */
export interface Created {
  users: { side: Side; id: string; email: string }[];
  tickets: CreatedTicket[];
}

/**
 * Sends both services the same requests of every kind they both serve and compares the
 * answers. Writes (user/add; with `ticketWrites`, a throwaway ticket on each side, closed
 * again) only when `write` is true.
 */
export async function runCheck(options: {
  original: CheckTarget;
  deskgate: CheckTarget;
  write: boolean;
  topicFacts?: { ids: string[]; inactive: Set<string> };
  /** osTicket's database (read only) and the values the ticket writes send. */
  ticketWrites?: { values: TicketWriteValues; databaseUrl: string; prefix: string };
  now?: Date;
}): Promise<{ results: ProbeResult[]; created: Created }> {
  const { original, deskgate } = options;
  const context: CompareContext = { inactiveTopicIds: options.topicFacts?.inactive };
  const results: ProbeResult[] = [];
  const run = async (probe: Probe) => {
    const outcome = await runProbe(probe, original, deskgate, context);
    results.push(outcome.result);
    return outcome;
  };

  const lists = topicProbes([], []).filter((p) => p.kind === 'topics-all');
  const all = await run(lists[0] as Probe);
  const ids = new Set([
    ...listIds(all.original, 'topics', 'id'),
    ...listIds(all.deskgate, 'topics', 'id'),
    ...(options.topicFacts?.ids ?? []),
  ]);
  const numeric = [...ids]
    .map(Number)
    .filter((id) => id > 0)
    .sort((x, y) => x - y);
  const topicNames =
    (all.original.data as { topics?: { topic?: unknown }[] } | undefined)?.topics ?? [];
  const words = [
    ...new Set(
      topicNames
        .map((t) => /[A-Za-z]{3,}/.exec(String(t.topic))?.[0]?.toLowerCase())
        .filter((w): w is string => Boolean(w)),
    ),
  ].slice(0, 5);
  for (const probe of topicProbes([...numeric, 2147483647], words)) {
    if (probe.kind !== 'topics-all') await run(probe);
  }
  for (const probe of refusalProbes()) await run(probe);

  const targets: ReadTargets = {};
  for (const probe of listProbes()) {
    const outcome = await run(probe);
    collectTargets(targets, probe, outcome.deskgate);
  }
  for (const probe of lookupProbes(targets)) await run(probe);

  const emails: string[] = [];
  const userIds: string[] = [];
  const created: Created = { users: [], tickets: [] };
  if (options.write) {
    // The second and a random part: two checks started in the same second (a script, a retry)
    // must not find each other's throwaway users and read "already used" as a difference.
    const second = (options.now ?? new Date()).toISOString().replace(/\D/g, '').slice(0, 14);
    const tag = `${second}-${randomBytes(3).toString('hex')}`;
    const adds = userAddProbes(tag);
    const ticketUsers: Partial<Record<Side, number>> = {};
    for (const probe of adds.probes) {
      const outcome = await run(probe);
      if (!probe.bodies) continue;
      for (const [side, reading, body] of [
        ['original', outcome.original, probe.bodies.original],
        ['deskgate', outcome.deskgate, probe.bodies.deskgate],
      ] as const) {
        if (reading.outcome !== 'success') continue;
        const email = (body as { parameters: { email: string } }).parameters.email;
        userIds.push(String(reading.data));
        emails.push(email);
        created.users.push({ side, id: String(reading.data), email });
        if (probe === adds.probes[0]) ticketUsers[side] = Number(reading.data);
      }
    }
    if (options.ticketWrites) {
      created.tickets = await checkTicketWrites({
        ...options.ticketWrites,
        tag,
        userIds: ticketUsers,
        run,
        sendDeskgate: (body) =>
          send(deskgate, { name: '', kind: 'ticket-write', method: 'POST', body }, body),
        sendOriginal: (body) =>
          send(original, { name: '', kind: 'ticket-write', method: 'POST', body }, body),
      });
    }
  }
  // user/all compares `created` days as the database's clock writes them: the local day here.
  const now = options.now ?? new Date();
  const today = `${now.getFullYear()}-${String(now.getMonth() + 1).padStart(2, '0')}-${String(now.getDate()).padStart(2, '0')}`;
  const [everyUser, ...ranges] = userListProbes(today);
  const listed = await run(everyUser as Probe);
  const existing = listIds(listed.original, 'users', 'user_id').filter(
    (id) => !userIds.includes(id),
  );
  for (const probe of [
    ...userLookupProbes(emails, [...userIds, ...existing.slice(0, 3)]),
    ...ranges,
  ])
    await run(probe);
  return { results, created };
}
