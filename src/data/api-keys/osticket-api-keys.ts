import { createHash, timingSafeEqual } from 'node:crypto';
import type { Generated, Kysely, Selectable } from 'kysely';
import type { ApiKey } from '../../domain.ts';
import { type OsticketHandle, tablesOf } from '../entity.ts';
import { managedByOsticket } from '../osticket/managed-by-osticket.ts';
import { formatTimestamp } from '../time.ts';
import type { ApiKeyData } from './api-keys.ts';

export interface OstApiKeyTable {
  id: Generated<number>;
  isactive: number;
  ipaddr: string;
  /** Stored in clear by osTicket. */
  apikey: string;
  can_create_tickets: number;
  can_exec_cron: number;
  notes: string | null;
  updated: string;
  created: string;
}

export interface OsticketApiKeyTables {
  api_key: OstApiKeyTable;
}

/** The columns deskgate reads; the start and /readyz select them too. */
export const OST_API_KEY_COLUMNS = [
  'id',
  'isactive',
  'ipaddr',
  'apikey',
  'can_create_tickets',
  'notes',
  'created',
  'updated',
] as const;

type ApiKeyRow = Pick<Selectable<OstApiKeyTable>, (typeof OST_API_KEY_COLUMNS)[number]>;

function toApiKey(row: ApiKeyRow): ApiKey {
  return {
    id: Number(row.id),
    name: row.notes?.split('\n')[0]?.slice(0, 128) || `osTicket key ${row.id}`,
    // Every active osTicket key may read topics; can_create_tickets grants writes, user and
    // ticket look-ups and ticket writes.
    scopes:
      Number(row.can_create_tickets) === 1
        ? ['read', 'write', 'users:read', 'tickets:read', 'tickets:write']
        : ['read'],
    // osTicket's api_key has no such flag; internal notes stay in its staff panel.
    notes: false,
    // osTicket binds a key to exactly one address.
    allowIps: row.ipaddr ? [row.ipaddr] : ['0.0.0.0/32'],
    created: formatTimestamp(row.created),
    lastUsed: null,
    revoked: Number(row.isactive) === 1 ? null : formatTimestamp(row.updated),
    expires: null,
    replacedBy: null,
  };
}

function digest(value: string): Buffer {
  return createHash('sha256').update(value).digest();
}

export async function listApiKeys(db: Kysely<OsticketApiKeyTables>): Promise<ApiKey[]> {
  return (await db.selectFrom('api_key').select(OST_API_KEY_COLUMNS).orderBy('id').execute()).map(
    toApiKey,
  );
}

export async function countApiKeys(db: Kysely<OsticketApiKeyTables>): Promise<number> {
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
  db: Kysely<OsticketApiKeyTables>,
  secret: string,
): Promise<ApiKey | undefined> {
  const rows = await db
    .selectFrom('api_key')
    .select(OST_API_KEY_COLUMNS)
    .where('isactive', '=', 1)
    .execute();
  const presented = digest(secret.toUpperCase());
  let found: ApiKeyRow | undefined;
  for (const row of rows) {
    if (timingSafeEqual(digest(row.apikey.toUpperCase()), presented)) found = row;
  }
  return found && toApiKey(found);
}

/** osTicket's keys, read-only: they are created and revoked in osTicket's admin panel. */
export function makeOsticketApiKeys(handle: OsticketHandle): ApiKeyData {
  const db = tablesOf<OsticketApiKeyTables>(handle.db);
  return {
    createApiKey: managedByOsticket('API keys'),
    createFirstApiKey: managedByOsticket('API keys'),
    listApiKeys: () => listApiKeys(db),
    findApiKeyById: async (id) => (await listApiKeys(db)).find((key) => key.id === id),
    rotateApiKey: managedByOsticket('API keys'),
    revokeApiKey: managedByOsticket('API keys'),
    findApiKeyBySecret: (secret) => findApiKeyBySecret(db, secret),
    markApiKeyUsed: async () => {},
    countApiKeys: () => countApiKeys(db),
  };
}
