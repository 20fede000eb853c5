import { createHash, timingSafeEqual } from 'node:crypto';
import type { Kysely, Selectable } from 'kysely';
import type { ApiKey } from '../../domain.ts';
import { formatTimestamp } from '../time.ts';
import type { OstApiKeyTable, OsticketDatabase } from './schema.ts';

function toApiKey(row: Selectable<OstApiKeyTable>): ApiKey {
  return {
    id: Number(row.id),
    name: row.notes?.split('\n')[0]?.slice(0, 128) || `osTicket key ${row.id}`,
    // Every active osTicket key may read topics; can_create_tickets grants writes and user look-ups.
    scopes:
      Number(row.can_create_tickets) === 1
        ? ['read', 'write', 'users:read', 'tickets:read', 'tickets:write']
        : ['read'],
    notes: false,
    // osTicket binds a key to exactly one address.
    allowIps: row.ipaddr ? [row.ipaddr] : ['0.0.0.0/32'],
    created: formatTimestamp(row.created),
    lastUsed: null,
    revoked: Number(row.isactive) === 1 ? null : formatTimestamp(row.updated),
  };
}

function digest(value: string): Buffer {
  return createHash('sha256').update(value).digest();
}

export async function listApiKeys(db: Kysely<OsticketDatabase>): Promise<ApiKey[]> {
  return (await db.selectFrom('api_key').selectAll().orderBy('id').execute()).map(toApiKey);
}

export async function countApiKeys(db: Kysely<OsticketDatabase>): Promise<number> {
  const row = await db
    .selectFrom('api_key')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('isactive', '=', 1)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/**
 * osTicket keeps keys in clear. Instead of letting the database compare the secret (an index
 * walk whose time depends on the bytes), every active key is compared in constant time.
 * Case-insensitively, like osTicket's own API (a key typed or stored in lower case still works).
 */
export async function findApiKeyBySecret(
  db: Kysely<OsticketDatabase>,
  secret: string,
): Promise<ApiKey | undefined> {
  const rows = await db.selectFrom('api_key').selectAll().where('isactive', '=', 1).execute();
  const presented = digest(secret.toUpperCase());
  let found: Selectable<OstApiKeyTable> | undefined;
  for (const row of rows) {
    if (timingSafeEqual(digest(row.apikey.toUpperCase()), presented)) found = row;
  }
  return found && toApiKey(found);
}
