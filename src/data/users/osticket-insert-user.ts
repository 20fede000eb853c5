import { type Kysely, sql } from 'kysely';
import type { Dialect, UniqueIndex } from '../dialects/dialect.ts';
import { RejectedValueError } from '../store.ts';
import { DuplicateEmailError } from './duplicate-email-error.ts';
import { type ContactField, type ContactForm, findContactForm } from './osticket-contact-form.ts';
import { toSearchable, userSearchContent } from './osticket-search-text.ts';
import type { OsticketUserTables } from './osticket-users.ts';
import type { NewUser } from './user.ts';

/** osTicket's `UNIQUE KEY address (address)`, case-insensitive through the column's collation. */
const EMAIL_UNIQUE: UniqueIndex = { table: 'user_email', index: 'address' };
/** osTicket's user_account.status bit 1 (UserAccountStatus::CONFIRMED); 0: pending confirmation. */
const ACCOUNT_CONFIRMED = 1;
const ACCOUNT_PENDING = 0;
/** MySQL's "Incorrect string value … for column": a character the column's charset cannot hold. */
const ER_TRUNCATED_WRONG_VALUE_FOR_FIELD = 1366;
const NOW = sql<string>`now()`;

interface ColumnInfo {
  table: string;
  column: string;
  charset: string | null;
}

/**
 * The columns of the tables a new user touches, from information_schema: their charsets, and
 * whether osTicket has materialised `user__cdata` yet (it does so lazily) and with which columns.
 */
async function describeUserTables(
  db: Kysely<OsticketUserTables>,
  prefix: string,
): Promise<ColumnInfo[]> {
  const tables = ['user', 'user_email', 'user__cdata'].map((t) => `${prefix}${t}`);
  const { rows } = await sql<{ t: string; c: string; cs: string | null }>`
    select table_name as t, column_name as c, character_set_name as cs
    from information_schema.columns
    where table_schema = database() and table_name in (${sql.join(tables)})`.execute(db);
  return rows.map((r) => ({ table: r.t.slice(prefix.length), column: r.c, charset: r.cs }));
}

/**
 * describeUserTables' answer per database (a store has one `db`). Charsets do not change while
 * deskgate runs, so they are read once. `user__cdata` comes and goes: osTicket creates it lazily
 * and drops it when the contact form changes (rebuilding it later from the form answers). So an
 * absent table is looked for again on every creation, and a present one is described again when
 * it no longer fits: a field the cache lacks, or an insert refused because the table or a column
 * has gone (insertContactCache).
 */
const describedTables = new WeakMap<Kysely<OsticketUserTables>, ColumnInfo[]>();

async function userTablesOf(
  db: Kysely<OsticketUserTables>,
  trx: Kysely<OsticketUserTables>,
  prefix: string,
  { fresh = false } = {},
): Promise<ColumnInfo[]> {
  const cached = describedTables.get(db);
  if (cached && !fresh && cdataColumnsOf(cached).has('user_id')) return cached;
  const columns = await describeUserTables(trx, prefix);
  describedTables.set(db, columns);
  return columns;
}

function cdataColumnsOf(columns: readonly ColumnInfo[]): Set<string> {
  return new Set(columns.filter((c) => c.table === 'user__cdata').map((c) => c.column));
}

/** MySQL's "Table … doesn't exist" and "Unknown column": `user__cdata` changed under the cache. */
const ER_BAD_FIELD_ERROR = 1054;
const ER_NO_SUCH_TABLE = 1146;

function isContactTableChanged(error: unknown): boolean {
  const errno = (error as { errno?: unknown } | null)?.errno;
  return errno === ER_NO_SUCH_TABLE || errno === ER_BAD_FIELD_ERROR;
}

/**
 * Writes osTicket's `user__cdata` cache row when the table exists: an answer's search keys,
 * the digits or '' when empty, in the columns the table has. If osTicket dropped or rebuilt the
 * table since it was described, it is described again and the row written (or skipped) then.
 */
async function insertContactCache(
  db: Kysely<OsticketUserTables>,
  trx: Kysely<OsticketUserTables>,
  prefix: string,
  described: ColumnInfo[],
  row: { userId: number; form: ContactForm; answer: (field: ContactField) => string | null },
): Promise<void> {
  let columns = cdataColumnsOf(described);
  // A field the cached columns lack: osTicket may have rebuilt the table for a new field.
  if (columns.has('user_id') && row.form.answeredFields.some((f) => !columns.has(f.column)))
    columns = cdataColumnsOf(await userTablesOf(db, trx, prefix, { fresh: true }));
  for (let attempt = 1; columns.has('user_id'); attempt++) {
    const cached: Record<string, string> = {};
    for (const field of row.form.answeredFields)
      if (columns.has(field.column)) cached[field.column] = row.answer(field) ?? '';
    try {
      await trx
        .insertInto('user__cdata')
        .values({ user_id: row.userId, ...cached })
        .execute();
      return;
    } catch (error) {
      // A refused statement leaves MySQL's transaction as it was: describe the table, try again.
      if (attempt > 1 || !isContactTableChanged(error)) throw error;
      columns = cdataColumnsOf(await userTablesOf(db, trx, prefix, { fresh: true }));
    }
  }
}

/** Whether `value` holds a character outside the Basic Multilingual Plane (4 bytes in UTF-8). */
function hasFourByteCharacter(value: string): boolean {
  return /[\u{10000}-\u{10FFFF}]/u.test(value);
}

/**
 * osTicket's tables are utf8mb3: a 4-byte character (an emoji) cannot be stored. Refused up
 * front, naming the parameter, rather than left to a strict-mode error or, without strict
 * mode, silently mangled into "?".
 */
function assertStorable(columns: readonly ColumnInfo[], user: NewUser): void {
  const threeByte = (table: string, column: string) =>
    columns.some(
      (c) => c.table === table && c.column === column && /^utf8(mb3)?$/i.test(c.charset ?? ''),
    );
  for (const [field, value, table, column] of [
    ['name', user.name, 'user', 'name'],
    ['email', user.email, 'user_email', 'address'],
  ] as const) {
    if (threeByte(table, column) && hasFourByteCharacter(value)) {
      throw new RejectedValueError(
        field,
        `contains a character osTicket's database cannot store (4-byte UTF-8, e.g. an emoji; its tables are utf8mb3)`,
      );
    }
  }
}

async function assertOrganization(db: Kysely<OsticketUserTables>, orgId: number): Promise<void> {
  if (orgId === 0) return;
  const org = await db
    .selectFrom('organization')
    .select('id')
    .where('id', '=', orgId)
    .executeTakeFirst();
  if (!org) {
    throw new RejectedValueError(
      'org_id',
      'must be 0 (no organisation) or the id of an existing osTicket organisation',
    );
  }
}

/** The field a strict-mode "Incorrect string value" error is about, when it is one. */
function rejectedByCharset(error: unknown): RejectedValueError | undefined {
  const e = error as { errno?: unknown; sqlMessage?: unknown } | null;
  if (e?.errno !== ER_TRUNCATED_WRONG_VALUE_FOR_FIELD || typeof e.sqlMessage !== 'string')
    return undefined;
  const field = /[`'.]address[`']/.test(e.sqlMessage) ? 'email' : 'name';
  return new RejectedValueError(field, "contains a character osTicket's database cannot store");
}

/**
 * Writes a user exactly as osTicket 1.18.1 does when an agent adds and registers one
 * (../shared/osticket/README.md): `user`, `user_email`, a `user_account` (confirmed, or pending as
 * osTicket's portal registration leaves it until the confirmation link is followed), the contact
 * form's entry and its answers (phone, and NULL for the other fields), the `user__cdata` cache
 * when that table exists, and the `_search` row staff search uses. Timestamps are the database's
 * NOW() in the server's time zone, as osTicket writes them. Runs in the write's transaction
 * (`trx`); `db` is the store's database, whose described columns are kept.
 */
export async function insertUser(
  db: Kysely<OsticketUserTables>,
  trx: Kysely<OsticketUserTables>,
  dialect: Dialect,
  prefix: string,
  user: NewUser,
): Promise<number> {
  try {
    const columns = await userTablesOf(db, trx, prefix);
    assertStorable(columns, user);
    await assertOrganization(trx, user.orgId);
    const form = await findContactForm(trx);
    const inserted = await trx
      .insertInto('user')
      .values({
        org_id: user.orgId,
        // Set to the new address's id below, whatever the caller sent (SPEC §7).
        default_email_id: 0,
        status: user.status,
        name: user.name,
        created: NOW,
        updated: NOW,
      })
      .executeTakeFirstOrThrow();
    const userId = Number(inserted.insertId);
    const email = await trx
      .insertInto('user_email')
      .values({ user_id: userId, flags: 0, address: user.email })
      .executeTakeFirstOrThrow();
    await trx
      .updateTable('user')
      .set({ default_email_id: Number(email.insertId) })
      .where('id', '=', userId)
      .execute();
    await trx
      .insertInto('user_account')
      .values({
        user_id: userId,
        status: user.accountConfirmed ? ACCOUNT_CONFIRMED : ACCOUNT_PENDING,
        timezone: user.timezone,
        lang: null,
        username: null,
        passwd: user.passwordHash,
        backend: null,
        extra: null,
        registered: NOW,
      })
      .execute();

    // The phone lives in the contact form's answers; `__cdata` is only osTicket's cache of them.
    const phone = user.phone;
    const entry = await trx
      .insertInto('form_entry')
      .values({
        form_id: form.formId,
        object_id: userId,
        object_type: 'U',
        sort: 1,
        extra: null,
        created: NOW,
        updated: NOW,
      })
      .executeTakeFirstOrThrow();
    const answer = (field: ContactField) => (field.type === 'phone' && phone !== '' ? phone : null);
    if (form.answeredFields.length > 0) {
      await trx
        .insertInto('form_entry_values')
        .values(
          form.answeredFields.map((field) => ({
            entry_id: Number(entry.insertId),
            field_id: field.id,
            value: answer(field),
            value_id: null,
          })),
        )
        .execute();
    }
    await insertContactCache(db, trx, prefix, columns, { userId, form, answer });
    // REPLACE, as osTicket's indexer does: a stale row for this id (an id the server reused)
    // is overwritten. It needs INSERT and DELETE only; ON DUPLICATE KEY UPDATE would need
    // SELECT on the index, which holds every ticket's text.
    await trx
      .replaceInto('_search')
      .values({
        object_type: 'U',
        object_id: userId,
        title: toSearchable(user.name),
        content: userSearchContent(phone, user.email),
      })
      .execute();
    return userId;
  } catch (error) {
    if (dialect.isUniqueViolation(error, EMAIL_UNIQUE))
      throw new DuplicateEmailError(user.email, { cause: error });
    throw rejectedByCharset(error) ?? error;
  }
}
