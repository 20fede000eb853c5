import { createHash, timingSafeEqual } from 'node:crypto';
import type { Generated, Kysely, Selectable } from 'kysely';
import type { ApiKey } from '../../domain.ts';
import { type OsticketHandle, tablesOf } from '../entity.ts';
import { managedByOsticket, managedInOsticketMessage } from '../osticket/managed-by-osticket.ts';
import { UnsupportedInModeError } from '../store.ts';
import { formatTimestamp } from '../time.ts';
import { ADMIN_KEY_FIRST_ID } from './admin-key-table.ts';
import type { ApiKeyData, NewApiKey } from './api-keys.ts';
import { makeOwnApiKeys } from './own-api-keys.ts';

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
    agents: [],
    accounts: { organizations: false, confirmed: false },
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

/** Why `keys create` refuses a key in osTicket mode, or undefined when it may create it. */
function refusalOf(handle: OsticketHandle, key: NewApiKey): string | undefined {
  if (key.scopes.length !== 1 || key.scopes[0] !== 'admin')
    return `${managedInOsticketMessage('API keys')}; deskgate makes only --scope admin keys here`;
  if (!handle.adminWrites)
    return 'in osTicket mode admin keys need DESKGATE_OSTICKET_ADMIN_WRITES=true (and its grants, docs/replacing-the-osticket-web-service.md)';
  return undefined;
}

/**
 * osTicket's keys, read-only (created and revoked in osTicket's admin panel), and with
 * DESKGATE_OSTICKET_ADMIN_WRITES deskgate's own `admin` keys in `deskgate_api_keys`, hashed,
 * ids from ADMIN_KEY_FIRST_ID (decision 270). Authentication asks osTicket's keys first.
 */
export function makeOsticketApiKeys(handle: OsticketHandle): ApiKeyData {
  const db = tablesOf<OsticketApiKeyTables>(handle.db);
  const admin = handle.adminWrites ? makeOwnApiKeys(handle) : undefined;
  const isAdminKey = (id: number) => id >= ADMIN_KEY_FIRST_ID;
  const checked = (key: NewApiKey): ApiKeyData => {
    const refusal = refusalOf(handle, key);
    if (refusal || !admin) throw new UnsupportedInModeError(refusal ?? '');
    return admin;
  };
  return {
    createApiKey: (key) => checked(key).createApiKey(key),
    createFirstApiKey: managedByOsticket('API keys'),
    listApiKeys: async () => [...(await listApiKeys(db)), ...((await admin?.listApiKeys()) ?? [])],
    findApiKeyById: async (id) =>
      isAdminKey(id)
        ? admin?.findApiKeyById(id)
        : (await listApiKeys(db)).find((key) => key.id === id),
    rotateApiKey: (id, replacement, oldEndsAt) =>
      isAdminKey(id)
        ? checked(replacement).rotateApiKey(id, replacement, oldEndsAt)
        : managedByOsticket('API keys')(),
    revokeApiKey: async (id) =>
      isAdminKey(id) ? ((await admin?.revokeApiKey(id)) ?? false) : managedByOsticket('API keys')(),
    findApiKeyBySecret: async (secret) =>
      (await findApiKeyBySecret(db, secret)) ?? admin?.findApiKeyBySecret(secret),
    markApiKeyUsed: async (id) => {
      if (isAdminKey(id)) await admin?.markApiKeyUsed(id);
    },
    countApiKeys: async () => (await countApiKeys(db)) + ((await admin?.countApiKeys()) ?? 0),
  };
}
