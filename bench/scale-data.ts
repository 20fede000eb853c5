/**
 * Fills a database at the size of a large help desk (issue 34, item 4), in the database itself:
 * `INSERT … SELECT` over a number series (PostgreSQL generate_series, MariaDB's seq_1_to_N,
 * SQLite a recursive CTE), so a million tickets take minutes, not hours.
 *
 *   node bench/scale-data.ts --database URL --tickets 1000000 [--osticket]
 *
 * Per ticket: one user per five tickets (each with an address, and a portal account on deskgate's
 * schema), five thread entries (a message, then responses), two events, created over three years;
 * last update a shuffle of the creation times. deskgate's own schema must be migrated first
 * (`deskgate migrate`); --osticket fills osTicket 1.18.1's tables (prefix `ost_`), which must
 * exist (its installer, or shared/osticket/schema-1.18.1.sql).
 */
import { parseArgs } from 'node:util';
import { type Kysely, sql } from 'kysely';
import type { DialectName } from '../src/data/store.ts';

/** Three years from 2023-01-01, in seconds per ticket at one million. */
const START_EPOCH = 1_672_531_200;
const SPAN_SECONDS = 3 * 365 * 86_400;

export interface ScaleSize {
  tickets: number;
}

/** `n` from 1 to `count`, as a FROM clause (alias `s`, column `n`). */
function series(dialect: DialectName, count: number) {
  if (dialect === 'postgres') return sql.raw(`generate_series(1::bigint, ${count}) as s(n)`);
  if (dialect === 'mysql') return sql.raw(`(select seq as n from seq_1_to_${count}) as s`);
  return sql.raw(
    `(with recursive c(n) as (select 1 union all select n + 1 from c where n < ${count}) select n from c) as s`,
  );
}

/** `YYYY-MM-DD HH:MM:SS` of START_EPOCH + `seconds` (an SQL expression). */
function timestamp(dialect: DialectName, seconds: string) {
  if (dialect === 'postgres') {
    return sql.raw(
      `to_char(to_timestamp(${START_EPOCH} + (${seconds})) at time zone 'UTC', 'YYYY-MM-DD HH24:MI:SS')`,
    );
  }
  if (dialect === 'mysql') {
    return sql.raw(
      `date_format('2023-01-01 00:00:00' + interval (${seconds}) second, '%Y-%m-%d %H:%i:%s')`,
    );
  }
  return sql.raw(`strftime('%Y-%m-%d %H:%M:%S', ${START_EPOCH} + (${seconds}), 'unixepoch')`);
}

/** Integer division, the same on the three databases. */
function div(dialect: DialectName, a: string, b: number): string {
  return dialect === 'mysql'
    ? `((${a}) div ${b})`
    : dialect === 'postgres'
      ? `((${a}) / ${b})`
      : `((${a}) / ${b})`;
}

/** Deskgate's own schema (migrated), on SQLite, PostgreSQL or MariaDB/MySQL. */
export async function fillOwnSchema(
  db: Kysely<object>,
  dialect: DialectName,
  { tickets }: ScaleSize,
): Promise<void> {
  const users = Math.max(1, Math.floor(tickets / 5));
  const step = Math.max(1, Math.floor(SPAN_SECONDS / tickets));
  const created = timestamp(dialect, `n * ${step}`);
  // A shuffle of the creation times: last update follows no id order.
  const updated = timestamp(dialect, `((n * 7919) % ${tickets}) * ${step} + 3600`);
  const userCreated = timestamp(dialect, `n * ${step * 5}`);
  await sql`insert into users (org_id, default_email_id, status, name, phone, created_at, updated_at)
    select 0, n, 0, ${sql.raw(dialect === 'mysql' ? "concat('User ', n)" : "'User ' || n")}, '', ${userCreated}, ${userCreated}
    from ${series(dialect, users)}`.execute(db);
  const address = sql.raw(
    dialect === 'mysql' ? "concat('user', n, '@example.com')" : "'user' || n || '@example.com'",
  );
  await sql`insert into user_emails (user_id, address, address_key)
    select n, ${address}, ${address} from ${series(dialect, users)}`.execute(db);
  await sql`insert into user_accounts (user_id, timezone, password_hash, registered_at)
    select n, 'UTC', '', ${userCreated} from ${series(dialect, users)}`.execute(db);
  const number = sql.raw(
    dialect === 'postgres'
      ? "lpad(n::text, 7, '0')"
      : dialect === 'mysql'
        ? "lpad(n, 7, '0')"
        : "printf('%07d', n)",
  );
  await sql`insert into tickets (number, user_id, status_id, priority_id, dept_id, sla_id, topic_id,
      staff_id, subject, source, ip_address, is_overdue, is_answered, last_update_at, created_at, updated_at)
    select ${number}, (n % ${users}) + 1, (n % 3) + 1, 2, 1, 0, 0, 0,
      ${sql.raw(dialect === 'mysql' ? "concat('Ticket ', n)" : "'Ticket ' || n")}, 'API', '', 0, 0,
      ${updated}, ${created}, ${updated}
    from ${series(dialect, tickets)}`.execute(db);
  const ticketOf = `${div(dialect, 'n - 1', 5)} + 1`;
  await sql`insert into ticket_entries (ticket_id, pid, type, user_id, staff_id, poster, title, body,
      format, source, ip_address, created_at)
    select ${sql.raw(ticketOf)}, 0, case when n % 5 = 1 then 'M' else 'R' end, 0, 0, 'Poster', null,
      'The printer on floor 2 is on fire again; it was fine this morning.', 'text', 'API', '',
      ${timestamp(dialect, `(${ticketOf}) * ${step} + (n % 5) * 60`)}
    from ${series(dialect, tickets * 5)}`.execute(db);
  const eventTicket = `${div(dialect, 'n - 1', 2)} + 1`;
  await sql`insert into ticket_events (ticket_id, kind, staff_id, user_id, dept_id, topic_id, data, at)
    select ${sql.raw(eventTicket)}, case when n % 2 = 1 then 'created' else 'closed' end, 0, 0, 1, 0, null,
      ${timestamp(dialect, `(${eventTicket}) * ${step} + (n % 2) * 3600`)}
    from ${series(dialect, tickets * 2)}`.execute(db);
  await sql`update counters set next = ${tickets + 1} where name = 'ticket'`.execute(db);
  // VACUUM too on PostgreSQL: a database in use has its hint bits and visibility map set; a bulk
  // load's first reads would set them (writing pages) while autovacuum runs beside the bench.
  if (dialect === 'postgres') await sql`vacuum analyze`.execute(db);
  else if (dialect === 'mysql') {
    await sql`analyze table users, user_emails, user_accounts, tickets, ticket_entries, ticket_events`.execute(
      db,
    );
  } else await sql`analyze`.execute(db);
}

/** osTicket 1.18.1's tables (prefix `ost_`) on MariaDB: users, tickets, threads, entries, events. */
export async function fillOsticketSchema(
  db: Kysely<object>,
  { tickets }: ScaleSize,
): Promise<void> {
  const users = Math.max(1, Math.floor(tickets / 5));
  const step = Math.max(1, Math.floor(SPAN_SECONDS / tickets));
  const at = (seconds: string) => sql.raw(`'2023-01-01 00:00:00' + interval (${seconds}) second`);
  await sql`insert into ost_user (org_id, default_email_id, status, name, created, updated)
    select 0, n, 0, concat('User ', n), ${at(`n * ${step * 5}`)}, ${at(`n * ${step * 5}`)}
    from ${series('mysql', users)}`.execute(db);
  await sql`insert into ost_user_email (user_id, flags, address)
    select n, 0, concat('user', n, '@example.com') from ${series('mysql', users)}`.execute(db);
  await sql`insert into ost_ticket (number, user_id, user_email_id, status_id, dept_id, sla_id, topic_id,
      source, ip_address, lastupdate, created, updated)
    select lpad(n, 7, '0'), (n % ${users}) + 1, (n % ${users}) + 1, (n % 3) + 1, 1, 1, 1, 'API', '',
      ${at(`((n * 7919) % ${tickets}) * ${step} + 3600`)}, ${at(`n * ${step}`)}, ${at(`n * ${step}`)}
    from ${series('mysql', tickets)}`.execute(db);
  await sql`insert into ost_thread (object_id, object_type, created)
    select n, 'T', ${at(`n * ${step}`)} from ${series('mysql', tickets)}`.execute(db);
  await sql`insert into ost_thread_entry (pid, thread_id, staff_id, user_id, type, poster, source,
      body, format, created, updated)
    select 0, ((n - 1) div 5) + 1, 0, 0, case when n % 5 = 1 then 'M' else 'R' end, 'Poster', 'API',
      'The printer on floor 2 is on fire again; it was fine this morning.', 'text',
      ${at(`(((n - 1) div 5) + 1) * ${step} + (n % 5) * 60`)}, ${at(`(((n - 1) div 5) + 1) * ${step}`)}
    from ${series('mysql', tickets * 5)}`.execute(db);
  await sql`insert into ost_thread_event (thread_id, thread_type, event_id, staff_id, team_id, dept_id,
      topic_id, username, uid_type, timestamp)
    select ((n - 1) div 2) + 1, 'T', case when n % 2 = 1 then 1 else 2 end, 0, 0, 1, 1, 'SYSTEM', 'S',
      ${at(`(((n - 1) div 2) + 1) * ${step} + (n % 2) * 3600`)}
    from ${series('mysql', tickets * 2)}`.execute(db);
  await sql`analyze table ost_user, ost_user_email, ost_ticket, ost_thread, ost_thread_entry, ost_thread_event`.execute(
    db,
  );
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      database: { type: 'string' },
      tickets: { type: 'string', default: '1000000' },
      osticket: { type: 'boolean', default: false },
    },
  });
  const tickets = Number(values.tickets);
  if (!values.database || !Number.isInteger(tickets) || tickets < 1) {
    throw new Error('usage: node bench/scale-data.ts --database URL [--tickets N] [--osticket]');
  }
  const { openDatabase } = await import('../src/data/open-database.ts');
  const { db, dialect } = openDatabase<object>(values.database, {
    max: 1,
    connectTimeoutMs: 5_000,
    queryTimeoutMs: 3_600_000,
  });
  const started = performance.now();
  try {
    if (values.osticket) await fillOsticketSchema(db, { tickets });
    else await fillOwnSchema(db, dialect.name, { tickets });
  } finally {
    await db.destroy();
  }
  process.stdout.write(
    `${tickets} tickets in ${((performance.now() - started) / 1000).toFixed(1)} s\n`,
  );
}

if (import.meta.main) await main();
