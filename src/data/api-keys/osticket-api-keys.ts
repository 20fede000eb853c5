import { createHash, timingSafeEqual } from 'node:crypto';
import type { Generated, Kysely, Selectable } from 'kysely';
import { NO_ACCOUNT_GRANT } from '../../auth/key-agents.ts';
import { type ApiKey, SCOPES, type Scope } from '../../domain.ts';
import { type OsticketHandle, tablesOf } from '../entity.ts';
import { managedByOsticket, managedInOsticketMessage } from '../osticket/managed-by-osticket.ts';
import { UnsupportedInModeError } from '../store.ts';
import { formatTimestamp } from '../time.ts';
import { ADMIN_KEY_FIRST_ID } from './admin-key-table.ts';
import type { ApiKeyData, NewApiKey, OsticketKeyListing } from './api-keys.ts';
import {
  deleteGrant,
  type KeyGrantTables,
  type OsticketKeyGrant,
  readGrants,
  writeGrant,
} from './osticket-key-grants.ts';
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

/**
 * What osTicket itself lets a key do (SPEC §4a): every active key reads (topics and the
 * catalogue); one with "Can Create Tickets" also opens tickets, as no agent, so only with the
 * department, SLA and status osTicket would choose (decision 310). Its grant adds the rest.
 */
function osticketScopes(row: Pick<ApiKeyRow, 'can_create_tickets'>): Scope[] {
  return Number(row.can_create_tickets) === 1 ? ['read', 'tickets:write'] : ['read'];
}

function toApiKey(row: ApiKeyRow, grant: OsticketKeyGrant | undefined): ApiKey {
  const own = osticketScopes(row);
  return {
    id: Number(row.id),
    name: row.notes?.split('\n')[0]?.slice(0, 128) || `osTicket key ${row.id}`,
    scopes: SCOPES.filter((scope) => own.includes(scope) || grant?.scopes.includes(scope)),
    notes: grant?.notes ?? false,
    agents: grant?.agents ?? [],
    accounts: grant?.accounts ?? NO_ACCOUNT_GRANT,
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

type Tables = OsticketApiKeyTables & KeyGrantTables;

async function listKeyRows(db: Kysely<Tables>, id?: number): Promise<ApiKeyRow[]> {
  let query = db.selectFrom('api_key').select(OST_API_KEY_COLUMNS).orderBy('id');
  if (id !== undefined) query = query.where('id', '=', id);
  return query.execute();
}

/** osTicket's keys with their grants, as `osticket keys list` shows them. */
async function listOsticketKeys(db: Kysely<Tables>, id?: number): Promise<OsticketKeyListing[]> {
  const rows = await listKeyRows(db, id);
  const grants = await readGrants(db, id);
  return rows.map((row) => {
    const grant = grants.get(Number(row.id));
    return {
      key: toApiKey(row, grant),
      canCreateTickets: Number(row.can_create_tickets) === 1,
      grant,
    };
  });
}

export async function listApiKeys(db: Kysely<Tables>): Promise<ApiKey[]> {
  return (await listOsticketKeys(db)).map((listing) => listing.key);
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
  db: Kysely<Tables>,
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
  if (!found) return undefined;
  return toApiKey(found, (await readGrants(db, Number(found.id))).get(Number(found.id)));
}

/** Why `keys create` refuses a key in osTicket mode, or undefined when it may create it. */
function refusalOf(handle: OsticketHandle, key: NewApiKey): string | undefined {
  if (key.scopes.length !== 1 || key.scopes[0] !== 'admin')
    return `${managedInOsticketMessage('API keys')}; deskgate makes only --scope admin keys here`;
  if (key.agents === 'any' || (key.agents?.length ?? 0) > 0)
    return 'admin keys write no tickets: --agent and --any-agent are for osTicket keys (deskgate osticket keys grant)';
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
  const db = tablesOf<Tables>(handle.db);
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
      isAdminKey(id) ? admin?.findApiKeyById(id) : (await listOsticketKeys(db, id))[0]?.key,
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
    osticketGrants: {
      listOsticketKeys: () => listOsticketKeys(db),
      async grant(grant) {
        if ((await listKeyRows(db, grant.osticketKeyId)).length === 0) return undefined;
        await writeGrant(db, grant);
        return (await listOsticketKeys(db, grant.osticketKeyId))[0];
      },
      async revoke(id) {
        if ((await listKeyRows(db, id)).length === 0) return 'unknown';
        return (await deleteGrant(db, id)) ? 'revoked' : 'none';
      },
    },
  };
}
