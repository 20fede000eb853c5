import type { Generated, Kysely, Selectable } from 'kysely';
import { hashApiKey } from '../../auth/api-key-secret.ts';
import { formatAgents, NO_ACCOUNT_GRANT, parseAgents } from '../../auth/key-agents.ts';
import { type ApiKey, SCOPES, type Scope } from '../../domain.ts';
import { insertReturningId } from '../common/insert-returning-id.ts';
import { type Param, prepareRead, type Reader } from '../common/prepared-query.ts';
import type { Dialect } from '../dialects/dialect.ts';
import { type OsticketHandle, type OwnHandle, readerOf, tablesOf } from '../entity.ts';
import { formatTimestamp, now, timestampToMs } from '../time.ts';
import type { ApiKeyData, NewApiKey } from './api-keys.ts';

export interface ApiKeyTable {
  id: Generated<number>;
  name: string;
  /** SHA-256 of the key, hex. The key itself is never stored. */
  key_hash: string;
  /** Comma-separated scopes, e.g. `read,write`. */
  scopes: string;
  /** JSON array of addresses and CIDR ranges; `[]` allows any address. */
  allow_ips: string;
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
  /** When the key stops working; null: never (migration 009). */
  expires_at: string | null;
  /** The key `keys rotate` made in its place. */
  replaced_by: number | null;
  /** 1: the key may read internal notes (with tickets:read); migration 006. */
  notes: Generated<number>;
  /**
   * The agents a ticket-writing key acts as: `any`, ids separated by commas, or '' for none
   * (migration 010; absent from osTicket mode's `deskgate_api_keys`, whose admin keys write no
   * tickets).
   */
  agents: Generated<string>;
}

export interface OwnApiKeyTables {
  api_keys: ApiKeyTable;
}

type ApiKeyRow = Selectable<ApiKeyTable>;

function toApiKey(row: ApiKeyRow): ApiKey {
  return {
    id: Number(row.id),
    name: row.name,
    scopes: row.scopes.split(',').filter((s): s is Scope => (SCOPES as string[]).includes(s)),
    allowIps: JSON.parse(row.allow_ips) as string[],
    created: formatTimestamp(row.created_at),
    lastUsed: row.last_used_at === null ? null : formatTimestamp(row.last_used_at),
    revoked: row.revoked_at === null ? null : formatTimestamp(row.revoked_at),
    expires: row.expires_at === null ? null : formatTimestamp(row.expires_at),
    replacedBy: row.replaced_by === null ? null : Number(row.replaced_by),
    notes: Number(row.notes) === 1,
    agents: parseAgents(row.agents),
    // Accounts are osTicket mode's (user/add's portal accounts); the own schema makes none.
    accounts: NO_ACCOUNT_GRANT,
  };
}

export async function createApiKey(
  db: Kysely<OwnApiKeyTables>,
  dialect: Dialect,
  key: NewApiKey,
): Promise<ApiKey> {
  const query = db.insertInto('api_keys').values({
    name: key.name,
    key_hash: key.keyHash,
    scopes: key.scopes.join(','),
    allow_ips: JSON.stringify(key.allowIps),
    created_at: now(),
    last_used_at: null,
    revoked_at: null,
    expires_at: key.expiresAt ?? null,
    replaced_by: null,
    notes: key.notes ? 1 : 0,
    // Only when there are agents: the admin keys' table of osTicket mode has no such column.
    ...(key.agents === undefined || formatAgents(key.agents) === ''
      ? {}
      : { agents: formatAgents(key.agents) }),
  });
  const id = await insertReturningId(query, dialect);
  return toApiKey(
    await db.selectFrom('api_keys').selectAll().where('id', '=', id).executeTakeFirstOrThrow(),
  );
}

export async function listApiKeys(db: Kysely<OwnApiKeyTables>): Promise<ApiKey[]> {
  const rows = await db.selectFrom('api_keys').selectAll().orderBy('id').execute();
  return rows.map(toApiKey);
}

export async function countApiKeys(db: Kysely<OwnApiKeyTables>): Promise<number> {
  const row = await db
    .selectFrom('api_keys')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function revokeApiKey(db: Kysely<OwnApiKeyTables>, id: number): Promise<boolean> {
  const key = await db
    .selectFrom('api_keys')
    .select(['id', 'revoked_at'])
    .where('id', '=', id)
    .executeTakeFirst();
  if (!key) return false;
  if (key.revoked_at === null) {
    await db.updateTable('api_keys').set({ revoked_at: now() }).where('id', '=', id).execute();
  }
  return true;
}

const activeKeyByHash = prepareRead(
  (db: Kysely<OwnApiKeyTables>, param: Param<{ keyHash: string }>) =>
    db
      .selectFrom('api_keys')
      .selectAll()
      .where('key_hash', '=', param('keyHash'))
      .where('revoked_at', 'is', null),
);

/** Only keys that are neither revoked nor expired are found. */
export async function findApiKeyByHash(
  reader: Reader<OwnApiKeyTables>,
  keyHash: string,
): Promise<ApiKey | undefined> {
  const [row] = await activeKeyByHash(reader, { keyHash });
  if (!row || (row.expires_at !== null && timestampToMs(row.expires_at) <= Date.now()))
    return undefined;
  return toApiKey(row);
}

export async function findApiKeyById(
  db: Kysely<OwnApiKeyTables>,
  id: number,
): Promise<ApiKey | undefined> {
  const row = await db.selectFrom('api_keys').selectAll().where('id', '=', id).executeTakeFirst();
  return row && toApiKey(row);
}

/** Thrown inside rotateApiKey's transaction to roll the new key back. */
class NotRotatable extends Error {}

export async function rotateApiKey(
  db: Kysely<OwnApiKeyTables>,
  dialect: Dialect,
  id: number,
  replacement: NewApiKey,
  oldEndsAt: string | null,
): Promise<ApiKey | undefined> {
  try {
    return await db.transaction().execute(async (trx) => {
      const created = await createApiKey(trx, dialect, replacement);
      // The conditions make two rotations of one key at once end with one replacement.
      const ended = await trx
        .updateTable('api_keys')
        .set(
          oldEndsAt === null
            ? { replaced_by: created.id, revoked_at: now() }
            : { replaced_by: created.id, expires_at: oldEndsAt },
        )
        .where('id', '=', id)
        .where('revoked_at', 'is', null)
        .where('replaced_by', 'is', null)
        .executeTakeFirst();
      if (Number(ended.numUpdatedRows) !== 1) throw new NotRotatable();
      return created;
    });
  } catch (error) {
    if (error instanceof NotRotatable) return undefined;
    throw error;
  }
}

export async function markApiKeyUsed(db: Kysely<OwnApiKeyTables>, id: number): Promise<void> {
  await db.updateTable('api_keys').set({ last_used_at: now() }).where('id', '=', id).execute();
}

/** deskgate's keys: in its own schema, or its admin keys in an osTicket database (`deskgate_api_keys`). */
export function makeOwnApiKeys(handle: OwnHandle | OsticketHandle): ApiKeyData {
  const db = tablesOf<OwnApiKeyTables>(handle.db);
  const reader = readerOf<OwnApiKeyTables>(handle.reader);
  const { dialect } = handle;
  return {
    createApiKey: (key) => createApiKey(db, dialect, key),
    createFirstApiKey: (key) =>
      dialect.withExclusiveLock(db, 'deskgate_first_key', async (locked) =>
        (await countApiKeys(locked)) > 0 ? undefined : createApiKey(locked, dialect, key),
      ),
    listApiKeys: () => listApiKeys(db),
    findApiKeyById: (id) => findApiKeyById(db, id),
    rotateApiKey: (id, replacement, oldEndsAt) =>
      rotateApiKey(db, dialect, id, replacement, oldEndsAt),
    revokeApiKey: (id) => revokeApiKey(db, id),
    findApiKeyBySecret: (secret) => findApiKeyByHash(reader, hashApiKey(secret)),
    markApiKeyUsed: (id) => markApiKeyUsed(db, id),
    countApiKeys: () => countApiKeys(db),
  };
}
