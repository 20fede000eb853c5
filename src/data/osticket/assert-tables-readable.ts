import { CompiledQuery, type Kysely } from 'kysely';
import type { OsticketDatabase } from './schema.ts';
import { TOPIC_COLUMNS } from './topics.ts';

/**
 * Reads no row but names every column deskgate uses, so that a table that is gone, renamed,
 * missing a column or no longer readable by deskgate's database user fails here: at start, and
 * on /readyz, not first in a caller's request.
 */
export async function assertTablesReadable(
  db: Kysely<OsticketDatabase>,
  { syslog = false }: { syslog?: boolean } = {},
): Promise<void> {
  const probes: { compile(): CompiledQuery }[] = [
    db.selectFrom('help_topic').select(TOPIC_COLUMNS),
    db
      .selectFrom('api_key')
      .select(['id', 'isactive', 'ipaddr', 'apikey', 'can_create_tickets', 'notes', 'created']),
    db
      .selectFrom('user')
      .select(['id', 'org_id', 'default_email_id', 'status', 'name', 'created', 'updated']),
    db.selectFrom('user_email').select(['id', 'user_id', 'flags', 'address']),
    db
      .selectFrom('user_account')
      .select(['id', 'user_id', 'status', 'timezone', 'passwd', 'registered']),
    db.selectFrom('form').select(['id', 'type']),
    db.selectFrom('form_field').select(['id', 'form_id', 'flags', 'type', 'name']),
    db.selectFrom('form_entry').select(['id', 'form_id', 'object_id', 'object_type']),
    db.selectFrom('form_entry_values').select(['entry_id', 'field_id', 'value']),
    db.selectFrom('organization').select('id'),
    ...(syslog ? [db.selectFrom('syslog').select('log_id')] : []),
  ];
  // One after the other: a readiness probe should not take most of the pool at once.
  for (const probe of probes) {
    const { sql: text, parameters } = probe.compile();
    await db.executeQuery(CompiledQuery.raw(`${text} limit 0`, [...parameters]));
  }
}
