import { createConnection } from 'mysql2/promise';
import type { TicketWriteValues } from './check-probes.ts';

/**
 * What the ticket writes of the check send, read from osTicket's database: values a client of
 * the original sends (it refused 0 in every field), taken from the help desk itself.
 */
export type TicketWriteFacts = TicketWriteValues;

/** The ticket of a throwaway user, and whether its status is of the closed state. */
export interface ThrowawayTicket {
  id: number;
  number: string;
  closed: boolean;
}

type Row = Record<string, unknown>;

async function withDatabase<T>(
  databaseUrl: string,
  work: (query: (sql: string, values?: unknown[]) => Promise<Row[]>) => Promise<T>,
): Promise<T> {
  const connection = await createConnection({ uri: databaseUrl });
  try {
    await connection.query('SET SESSION TRANSACTION READ ONLY');
    return await work(async (sql, values) => (await connection.query(sql, values))[0] as Row[]);
  } finally {
    await connection.end();
  }
}

/** Why ticket writes cannot be checked on this help desk, or the facts they send. */
export async function readTicketWriteFacts(
  databaseUrl: string,
  prefix: string,
  agent: number | undefined,
): Promise<TicketWriteFacts | string> {
  return withDatabase(databaseUrl, async (query) => {
    const first = async (sql: string, values?: unknown[]) =>
      (await query(sql, values))[0] as Row | undefined;
    const staff = await first(
      agent === undefined
        ? `SELECT staff_id, username FROM \`${prefix}staff\` WHERE isactive = 1 ORDER BY staff_id LIMIT 1`
        : `SELECT staff_id, username FROM \`${prefix}staff\` WHERE staff_id = ? AND isactive = 1`,
      agent === undefined ? [] : [agent],
    );
    if (!staff)
      return agent === undefined
        ? 'the help desk has no active agent'
        : `agent ${agent} is not an active agent of the help desk`;
    const status = (state: string) =>
      first(`SELECT id FROM \`${prefix}ticket_status\` WHERE state = ? ORDER BY id LIMIT 1`, [
        state,
      ]);
    const open = await status('open');
    const closed = await status('closed');
    // Active (bit 4) public departments, active (bit 2) public topics, active (bit 1) SLA plans.
    const dept = await first(
      `SELECT id FROM \`${prefix}department\` WHERE flags & 4 AND ispublic = 1 ORDER BY id LIMIT 1`,
    );
    const topic = await first(
      `SELECT topic_id FROM \`${prefix}help_topic\` WHERE flags & 2 AND ispublic = 1 ORDER BY topic_id LIMIT 1`,
    );
    const sla = await first(`SELECT id FROM \`${prefix}sla\` WHERE flags & 1 ORDER BY id LIMIT 1`);
    // The help desk's default priority (Normal on a fresh install), else any.
    const priority = await first(
      `SELECT p.priority_id FROM \`${prefix}ticket_priority\` p
       LEFT JOIN \`${prefix}config\` c
         ON c.namespace = 'core' AND c.\`key\` = 'default_priority_id' AND c.value = p.priority_id
       ORDER BY c.id IS NULL, p.priority_id LIMIT 1`,
    );
    const team = await first(`SELECT team_id FROM \`${prefix}team\` ORDER BY team_id LIMIT 1`);
    const missing = [
      [open, 'an open status'],
      [closed, 'a closed status'],
      [dept, 'an active public department'],
      [topic, 'an active public help topic'],
      [sla, 'an active SLA plan'],
      [priority, 'a priority'],
      [team, 'a team'],
    ]
      .filter(([row]) => !row)
      .map(([, what]) => what);
    if (missing.length) return `the help desk has no ${missing.join(', ')}`;
    return {
      staffId: Number(staff.staff_id),
      username: String(staff.username),
      openStatusId: Number(open?.id),
      closedStatusId: Number(closed?.id),
      deptId: Number(dept?.id),
      topicId: Number(topic?.topic_id),
      slaId: Number(sla?.id),
      priorityId: Number(priority?.priority_id),
      teamId: Number(team?.team_id),
    };
  });
}

/** The ticket each of `userIds` has (a throwaway user has at most the one the check opened). */
export async function readThrowawayTickets(
  databaseUrl: string,
  prefix: string,
  userIds: readonly number[],
): Promise<Map<number, ThrowawayTicket>> {
  const found = new Map<number, ThrowawayTicket>();
  if (userIds.length === 0) return found;
  return withDatabase(databaseUrl, async (query) => {
    const rows = await query(
      `SELECT t.user_id, t.ticket_id, t.number, s.state
       FROM \`${prefix}ticket\` t LEFT JOIN \`${prefix}ticket_status\` s ON s.id = t.status_id
       WHERE t.user_id IN (?) ORDER BY t.ticket_id`,
      [userIds],
    );
    for (const row of rows)
      found.set(Number(row.user_id), {
        id: Number(row.ticket_id),
        number: String(row.number),
        closed: row.state === 'closed',
      });
    return found;
  });
}
